"use strict";
// The word wall's page: draws the state its source sends, passes on each guess, keeps the page's clock.
// What a guess answers, when a question is decided and when the round ends is the server's to say.
// The source is one of three small adapters (SOURCES): a round of the app's (`lexitrain web`, a club
// member's /study), a club member's challenge attempt, a club's shared table.
(() => {
  const { el, letters, say, guarded, clockText } = lexitrain;
  const root = document.getElementById("wall");
  const customOrder = Array.from(root.dataset.order || "");
  const grid = document.getElementById("grid");
  const guessBox = document.getElementById("guess");
  const lastGuess = document.getElementById("last-guess");
  const timer = document.getElementById("timer");
  const giveUp = document.getElementById("give-up");
  const guessRow = document.getElementById("guess-row");
  //: the smallest a cell's words are shrunk to, to fit it (px)
  const SMALLEST_WORDS = 9;
  //: the most cells a wall holds on one laptop screen; a longer one (a club's bingo marathon) scrolls
  const ONE_SCREEN = 50;

  // A club's JSON (its own routes, not the app's under /study); a 409 is the attempt or table over.
  const club = (method, path, data) => lexitrain.call("", method, path, data);
  const over = (e) => e.status === 409;

  // Each source: load() the state; guess(word, token) {verdict, state} (the whole wall again) or {verdict,
  // alphagram} (a word found, drawn here); giveUp() the state; and where the source has them: next() and
  // mark(id, correct) (an app's round), live(onEvent) (a table's finds as they come), finishWhenSolved.
  const SOURCES = {
    round(ident) {
      const base = "/api/wall/" + ident;
      const on = (fields) => Object.assign({}, fields || {}, { round: state.round.token });
      return {
        load: () => lexitrain.api("GET", base),
        async guess(word, token) {
          const answer = await lexitrain.api("POST", base + "/guess", { word, round: token });
          return { verdict: answer.guess.verdict, state: answer };
        },
        giveUp: () => lexitrain.api("POST", base + "/give-up", on()),
        next: () => lexitrain.api("POST", base + "/next", on()),
        mark: (id, correct) => lexitrain.api("POST", base + "/mark", on({ id, correct })),
      };
    },

    challenge(ident) {
      const attempt = Number(ident);
      const load = () => club("GET", "/api/challenge/" + attempt);
      return {
        load,
        async guess(word) {
          try {
            const said = await club("POST", "/api/challenge/guess", { attempt, word });
            return { verdict: said.correct ? "correct" : "wrong", alphagram: said.alphagram };
          } catch (e) {
            if (over(e)) return { verdict: "ended", state: await load() }; // (its time ran out: the server ended it)
            throw e;
          }
        },
        async giveUp() {
          await club("POST", "/api/challenge/finish", { attempt }).catch((e) => { if (!over(e)) throw e; });
          return load();
        },
        finishWhenSolved: true, // (the attempt's time stops when its last word is found)
      };
    },

    table(ident) {
      const load = async () => (await club("GET", "/api/tables/" + ident)).wall;
      return {
        load,
        async guess(word) {
          try {
            const said = await club("POST", "/api/tables/" + ident + "/guess", { word });
            // (settled: the table says whether it was the first find, whichever of this reply and its event
            // reaches the page first)
            return { verdict: !said.correct ? "wrong" : said.first ? "correct" : "already", alphagram: said.alphagram,
              settled: true };
          } catch (e) {
            if (over(e)) return { verdict: "ended", state: await load() };
            throw e;
          }
        },
        async giveUp() { // (the owner's: the table ends for everyone seated)
          await club("POST", "/api/tables/" + ident + "/end").catch((e) => { if (!over(e)) throw e; });
          return load();
        },
        // The table's events as they happen, over its socket (again after a drop, from the last one seen).
        live(onEvent) {
          let after = state.last_event || 0;
          const open = () => {
            const scheme = location.protocol === "https:" ? "wss" : "ws";
            const socket = new WebSocket(scheme + "://" + location.host + "/api/tables/" + ident + "/events?after=" + after);
            socket.onmessage = (message) => {
              const event = JSON.parse(message.data);
              after = Math.max(after, event.id);
              onEvent(event);
            };
            socket.onclose = (closing) => {
              if (closing.code < 4000 && !(state && state.round && state.round.ended)) setTimeout(open, 1000);
            };
          };
          open();
        },
      };
    },
  };
  const source = SOURCES[root.dataset.source || "round"](root.dataset.ident);

  let state = null;
  let deadline = null; // performance.now() at which the page's clock reaches 0
  let asking = false; // a time check is on its way
  let sure = null; // the give-up button's "are you sure?" timer
  const shown = new Map(); // question id -> the order its tiles are shown in

  // Every cell of the round on show at once, each where it started: a solved one stays in its place,
  // showing its words instead of its tiles.
  function drawCell(cell) {
    const node = el("div", "cell");
    node.tabIndex = -1;
    node.dataset.alphagram = cell.alphagram;
    node.dataset.solved = String(cell.solved);
    node.dataset.found = String(cell.found.length > 0);
    node.dataset.id = cell.id;
    if (!shown.has(cell.id)) shown.set(cell.id, cell.tiles.slice());
    const left = cell.answers - cell.found.length;
    const chip = el("span", "chip", cell.solved ? "✓" : String(left));
    chip.setAttribute("aria-label", cell.solved ? "solved" : left + (left === 1 ? " answer left" : " answers left"));
    const tiles = el("div", "letters");
    node.append(chip, tiles);
    letters(tiles, shown.get(cell.id));
    const found = el("ul", "found");
    found.append(...cell.found.map((word) => {
      const item = el("li", "", word);
      const by = cell.found_by && cell.found_by[word]; // (at a table: who found it, the others' words apart)
      if (by) {
        item.title = "found by " + by;
        if (by !== state.me) item.className = "theirs";
      }
      return item;
    }));
    node.append(found);
    if (!cell.solved) {
      node.title = "click to shuffle";
      node.addEventListener("click", () => {
        shown.set(cell.id, shuffle(shown.get(cell.id)));
        letters(tiles, shown.get(cell.id));
        guessBox.focus();
      });
    }
    return node;
  }

  function shuffle(tiles) {
    const out = tiles.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  function reorder(how) {
    if (!state || !state.round) return;
    for (const cell of state.round.cells) {
      let tiles = cell.tiles.slice();
      if (how === "shuffle") tiles = shuffle(tiles);
      if (how === "custom" && customOrder.length) {
        const rank = (t) => { const i = customOrder.indexOf(t.toUpperCase()); return i < 0 ? customOrder.length : i; };
        tiles.sort((a, b) => rank(a) - rank(b));
      }
      shown.set(cell.id, tiles);
    }
    drawGrid();
  }

  function drawGrid() {
    // wider cells for long alphagrams (the round's longest), so their letters stay readable
    const longest = Math.max(...state.round.cells.map((c) => c.tiles.length));
    grid.classList.toggle("long", longest >= 10 && longest <= 11);
    grid.classList.toggle("longest", longest >= 12);
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ").length;
    grid.style.setProperty("--rows", String(Math.max(5, Math.ceil(state.round.cells.length / columns))));
    grid.replaceChildren(...state.round.cells.map(drawCell));
    // every cell is as tall as the grid's rows make it (not as its contents): measured once, its letters sized by it
    const first = grid.firstElementChild;
    if (first) grid.style.setProperty("--cell-h", first.getBoundingClientRect().height + "px");
    for (const node of grid.children) fitWords(node);
  }

  // A cell's words made smaller until the cell holds them all (a laptop's cell is a tenth of the wall's height,
  // and a question may have nine words): never below SMALLEST_WORDS, never on a phone, where a cell grows.
  function fitWords(node) {
    const found = node.querySelector(".found");
    if (!found.children.length) return;
    let size = parseFloat(getComputedStyle(found).fontSize);
    while (node.scrollHeight > node.clientHeight + 1 && size > SMALLEST_WORDS) {
      size = Math.max(SMALLEST_WORDS, size - 0.5);
      found.style.fontSize = size + "px";
    }
  }

  function tickClock() {
    if (deadline === null) return;
    const left = (deadline - performance.now()) / 1000;
    timer.textContent = clockText(Math.max(0, Math.ceil(left)));
    timer.classList.toggle("warning", left <= 10);
    if (left <= 0 && !asking) {
      asking = true; // the page's clock says 0: the server's clock is final
      source.load().then(show).catch((e) => say(e.message)).finally(() => { asking = false; });
    }
  }

  // Who has found how many words at a table (each seated member, 0 for one who found none), most first.
  function scores() {
    const counts = new Map((state.seated || []).map((name) => [name, 0]));
    for (const cell of state.round.cells) {
      for (const word of cell.found) {
        const by = cell.found_by && cell.found_by[word];
        if (by) counts.set(by, (counts.get(by) || 0) + 1);
      }
    }
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, n]) => name + " " + n).join(" · ");
  }

  // The head's line: where the round is in its list (an app's round), or what the club's wall is, and at a
  // table who found how many; the guess row's counts.
  function drawCounts() {
    const round = state.round;
    const progress = state.about === undefined
      ? (round.missed_pass ? "missed list: " : "") + "questions " + round.first + "–" + round.last + " of " + round.total
        + (round.elsewhere ? " (" + round.elsewhere + " of them a board or a word to judge: left for Reviews)" : "")
      : state.about + (state.seated ? " · " + scores() : "");
    document.getElementById("progress").textContent = progress;
    const found = round.cells.reduce((n, c) => n + c.found.length, 0);
    const words = round.cells.reduce((n, c) => n + c.answers, 0);
    const wrong = round.cells.reduce((n, c) => n + c.wrong, 0);
    document.getElementById("counts").textContent = found + "/" + words + " words"
      + (state.counts_wrong === false ? "" : " · " + wrong + " wrong");
  }

  function show(next) {
    state = next;
    const round = state.round;
    if (!round) return;
    drawCounts();
    const fits = round.cells.length <= ONE_SCREEN;
    document.body.classList.toggle("playing", !round.ended && fits);
    document.body.classList.toggle("playing-long", !round.ended && !fits);
    if (round.ended) return showEnd();
    giveUp.hidden = state.give_up === null;
    giveUp.textContent = state.give_up || "Give up";
    giveUp.setAttribute("aria-label", giveUp.textContent); // (its name while it asks "Are you sure?" too)
    document.getElementById("playing").hidden = false;
    guessRow.hidden = false;
    document.getElementById("end").hidden = true;
    deadline = state.time_left === null ? null : performance.now() + state.time_left * 1000;
    if (deadline === null) timer.textContent = "untimed";
    tickClock();
    drawGrid();
  }

  function showEnd() {
    deadline = null;
    const round = state.round;
    document.getElementById("playing").hidden = true;
    guessRow.hidden = true;
    document.getElementById("end").hidden = false;
    timer.textContent = round.timed_out ? "0:00" : ""; // (the result says how it ended: no time left standing)
    timer.classList.remove("warning");
    const percent = round.questions ? Math.round((100 * round.correct) / round.questions) : 0;
    const unscored = round.cells.filter((c) => !c.decided).length;
    const how = state.ended_how ? state.ended_how + " "
      : round.timed_out ? "Time is up. " : round.gave_up ? "Given up. " : round.left ? "Stopped: the page was left. " : "Solved. ";
    document.getElementById("result").textContent = how + "Correct: " + round.correct + " / " + round.questions + " (" + percent + "%)"
      + (unscored ? "; " + unscored + " never answered, not scored" : "");
    const next = document.getElementById("next");
    next.hidden = !state.has_next;
    document.getElementById("done").hidden = state.has_next;
    if (state.has_next) {
      const more = round.last < round.total;
      next.textContent = !more ? "Play the missed list"
        : (round.missed_pass ? "Next round of the missed list: " : "Next round: ")
          + "questions " + (round.last + 1) + "–" + Math.min(round.total, round.last + round.questions) + " of " + round.total;
      next.focus();
    } else document.getElementById("done").focus(); // the guess box is gone: Enter goes home
    const file = state.summary && state.summary.missed_list;
    document.getElementById("missed-file").textContent = file ? "Missed words saved to " + file : "";
    const body = document.querySelector("#solutions tbody");
    body.replaceChildren();
    // a rank is its length's: where a round mixes lengths each says which ("7s #12"), else 1, 2 would read as a tie
    const mixed = new Set((state.solutions || []).map((q) => q.tiles.length)).size > 1;
    for (const question of state.solutions || []) {
      question.words.forEach((facts, i) => {
        // the alphagram's rank once, as `lexitrain search` prints it (a blank's answers have several)
        const ranked = i === 0 || facts.alphagram !== question.words[i - 1].alphagram;
        // the question's mark button under its alphagram: no column of its own to push off a phone's screen
        const alphagram = el("td", "alphagram", i === 0 ? question.prompt : "");
        if (i === 0 && question.decided && source.mark) {
          const button = el("button", "quiet mark", question.correct ? "Mark missed" : "Mark correct");
          button.type = "button";
          button.addEventListener("click", guarded(() => source.mark(question.id, !question.correct).then(show)
            .catch((e) => say(e.message))));
          alphagram.append(button);
        }
        const rank = !ranked || !facts.probability ? "" : mixed ? question.tiles.length + "s #" + facts.probability : facts.probability;
        const row = lexitrain.answerRow(facts, [el("td", "num", rank), alphagram]);
        row.classList.add(question.correct ? "solved" : question.wrong ? "tried" : question.decided ? "unsolved" : "unscored");
        if (facts.found) row.classList.add("found-word");
        row.dataset.alphagram = question.alphagram;
        body.append(row);
      });
    }
    lexitrain.hideEmptyColumns(document.getElementById("solutions"));
  }

  // A word found (by this member, or at a table by anyone): into its cell; false when it was there already.
  function found(alphagram, word, by) {
    const cell = state.round.cells.find((c) => c.alphagram === alphagram);
    if (!cell || cell.found.includes(word)) return false;
    cell.found.push(word);
    if (cell.found_by) cell.found_by[word] = by;
    cell.solved = cell.found.length === cell.answers;
    return true;
  }

  function redraw() {
    drawCounts();
    drawGrid();
  }

  // Guesses typed fast go one after another, in order, each naming the round it was typed in.
  let guesses = Promise.resolve();
  function submit() {
    const word = guessBox.value.trim().toUpperCase();
    guessBox.value = "";
    if (!word || !state || !state.round) return;
    const round = state.round.token;
    guesses = guesses.then(() => send(word, round));
  }

  async function send(word, round) {
    try {
      const answer = await source.guess(word, round);
      let verdict = answer.verdict;
      if (answer.state) show(answer.state);
      else if (verdict === "correct" && !found(answer.alphagram, word, state.me) && !answer.settled) verdict = "already";
      lastGuess.className = verdict;
      lastGuess.textContent = word + ({ correct: " ✓", already: ": found already", wrong: " ✗", ended: ": the time is up" })[verdict];
      if (!answer.state && verdict === "correct") {
        redraw();
        if (source.finishWhenSolved && state.round.cells.every((c) => c.solved)) show(await source.giveUp());
      }
    } catch (e) {
      say(e.message);
    }
  }

  guessBox.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      submit();
    } else if (event.key === "1" || event.key === "2" || event.key === "3") {
      event.preventDefault();
      reorder({ 1: "shuffle", 2: "alphagram", 3: "custom" }[event.key]);
    }
  });
  guessBox.addEventListener("input", () => {
    const clean = guessBox.value.replace(/[^\p{L}·]/gu, "").toUpperCase();
    if (clean !== guessBox.value) guessBox.value = clean;
  });

  giveUp.addEventListener("click", () => {
    const label = state.give_up || "Give up";
    if (sure === null) {
      giveUp.textContent = "Are you sure?";
      sure = setTimeout(() => { giveUp.textContent = label; sure = null; }, 3000);
      return;
    }
    clearTimeout(sure);
    sure = null;
    giveUp.textContent = label;
    quit();
  });
  const quit = guarded(() => source.giveUp().then(show).catch((e) => say(e.message)));

  document.getElementById("next").addEventListener("click", guarded(async () => {
    try {
      const next = await source.next();
      shown.clear();
      lastGuess.textContent = "";
      show(next);
      guessBox.focus();
    } catch (e) { say(e.message); }
  }));

  // A table's events: a word found by anyone goes into its cell, a member sitting down joins the scores, and
  // the end shows the solutions (the server's state, read again).
  function live(event) {
    if (!state || !state.round || state.round.ended) return;
    if (event.type === "guess" && event.correct) {
      if (found(event.alphagram, event.word, event.member)) redraw();
    } else if (event.type === "join") {
      state.seated = event.seated;
      drawCounts();
    } else if (event.type === "end") {
      source.load().then(show).catch((e) => say(e.message));
    }
  }

  // A reload or a tab closed leaves the round as it is: the server keeps it, and its clock (or the app
  // stopping) decides it; going away from a live timed round asks first.
  window.addEventListener("beforeunload", (event) => {
    if (state && state.round && !state.round.ended && deadline !== null) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  let resized = null; // a window resized: the grid drawn again to its new columns and cells (once it settles)
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (state && state.round && !state.round.ended) drawGrid(); }, 150);
  });

  setInterval(tickClock, 200);
  source.load().then((first) => {
    show(first);
    guessBox.focus();
    if (source.live) source.live(live);
  }).catch((e) => say(e.message));
})();
