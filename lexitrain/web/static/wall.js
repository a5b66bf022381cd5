"use strict";
// The word wall's page: draws the state the app sends, passes on each guess, keeps the page's clock.
// What a guess answers, when a question is decided and when the round ends is the app's to say.
(() => {
  const { api, el, letters, say, guarded } = lexitrain;
  const root = document.getElementById("wall");
  const ident = root.dataset.ident;
  const customOrder = Array.from(root.dataset.order || "");
  const grid = document.getElementById("grid");
  const guessBox = document.getElementById("guess");
  const lastGuess = document.getElementById("last-guess");
  const timer = document.getElementById("timer");
  const giveUp = document.getElementById("give-up");
  const base = "/api/wall/" + ident;
  const guessRow = document.getElementById("guess-row");
  //: the smallest a cell's words are shrunk to, to fit it (px)
  const SMALLEST_WORDS = 9;

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
    found.append(...cell.found.map((w) => el("li", "", w)));
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

  function clockText(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function tickClock() {
    if (deadline === null) return;
    const left = (deadline - performance.now()) / 1000;
    timer.textContent = clockText(left);
    timer.classList.toggle("warning", left <= 10);
    if (left <= 0 && !asking) {
      asking = true; // the page's clock says 0: the app's clock is final
      api("GET", base).then(show).catch((e) => say(e.message)).finally(() => { asking = false; });
    }
  }

  function show(next) {
    state = next;
    const round = state.round;
    if (!round) return;
    document.getElementById("progress").textContent = (round.missed_pass ? "missed list: " : "")
      + "questions " + round.first + "–" + round.last + " of " + round.total
      + (round.elsewhere ? " (" + round.elsewhere + " of them a board or a word to judge: left for Reviews)" : "");
    const found = round.cells.reduce((n, c) => n + c.found.length, 0);
    const words = round.cells.reduce((n, c) => n + c.answers, 0);
    const wrong = round.cells.reduce((n, c) => n + c.wrong, 0);
    document.getElementById("counts").textContent = found + "/" + words + " words · " + wrong + " wrong";
    document.body.classList.toggle("playing", !round.ended);
    if (round.ended) return showEnd();
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
    const how = round.timed_out ? "Time is up. " : round.gave_up ? "Given up. " : round.left ? "Stopped: the page was left. " : "Solved. ";
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
        if (i === 0 && question.decided) {
          const button = el("button", "quiet mark", question.correct ? "Mark missed" : "Mark correct");
          button.type = "button";
          button.addEventListener("click", guarded(() => api("POST", base + "/mark",
            { id: question.id, correct: !question.correct, round: state.round.token }).then(show).catch((e) => say(e.message))));
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

  // Guesses typed fast go one after another, in order, each naming the round it was typed in.
  let guesses = Promise.resolve();
  function submit() {
    const word = guessBox.value.trim();
    guessBox.value = "";
    if (!word || !state || !state.round) return;
    const round = state.round.token;
    guesses = guesses.then(() => send(word, round));
  }

  async function send(word, round) {
    try {
      const answer = await api("POST", base + "/guess", { word, round });
      const verdict = answer.guess.verdict;
      lastGuess.className = verdict;
      lastGuess.textContent = word + ({ correct: " ✓", already: ": found already", wrong: " ✗", ended: ": the time is up" })[verdict];
      show(answer);
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
    if (sure === null) {
      giveUp.textContent = "Are you sure?";
      sure = setTimeout(() => { giveUp.textContent = "Give up"; sure = null; }, 3000);
      return;
    }
    clearTimeout(sure);
    sure = null;
    giveUp.textContent = "Give up";
    quit();
  });
  const quit = guarded(() => api("POST", base + "/give-up", { round: state.round.token }).then(show)
    .catch((e) => say(e.message)));

  document.getElementById("next").addEventListener("click", guarded(async () => {
    try {
      const next = await api("POST", base + "/next", { round: state.round.token });
      shown.clear();
      lastGuess.textContent = "";
      show(next);
      guessBox.focus();
    } catch (e) { say(e.message); }
  }));

  // A reload or a tab closed leaves the round as it is: the app keeps it, and its clock (or the app
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
  api("GET", base).then((first) => { show(first); guessBox.focus(); }).catch((e) => say(e.message));
})();
