"use strict";
// What every page's script shares: JSON calls to the app, and drawing letters and words as text (never as HTML).

const lexitrain = {
  // A JSON call to the app (on a club the app lives under /study: the page's data-base).
  async api(method, path, data, keepalive) {
    return lexitrain.call(document.body.dataset.base || "", method, path, data, keepalive);
  },

  // A JSON call to BASE + PATH (DATA a JSON body, or a FormData of files); a write carries the club member's CSRF
  // token (the page's data-csrf). An error answer is thrown as its one line, with its `status`.
  async call(base, method, path, data, keepalive) {
    const options = { method, headers: { "Accept": "application/json" }, keepalive: !!keepalive };
    if (data instanceof FormData) options.body = data; // (files: a multipart body, its type the browser's)
    else if (data !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(data);
    }
    if (document.body.dataset.csrf) options.headers["X-CSRF-Token"] = document.body.dataset.csrf;
    const response = await fetch(base + path, options);
    const body = await response.json().catch(() => ({ error: "the app sent no JSON (" + response.status + ")" }));
    if (!response.ok) throw Object.assign(new Error(body.error || ("error " + response.status)), { status: response.status });
    return body;
  },

  el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  },

  // Tiles as spans; a blank ("?" or a lowercase letter) drawn apart.
  letters(container, tiles) {
    container.replaceChildren(...tiles.map((tile) => {
      const blank = tile === "?" || tile !== tile.toUpperCase();
      return lexitrain.el("span", blank ? "letter blank" : "letter", tile);
    }));
    container.parentElement.classList.forEach((name) => {
      if (name.startsWith("len-")) container.parentElement.classList.remove(name);
    });
    container.parentElement.classList.add("len-" + Math.min(tiles.length, 15));
    container.style.setProperty("--n", String(tiles.length)); // a wall's cell sizes its letters by it
  },

  // A word with inner-hook marks (·) and the lexicon's symbols.
  word(facts) {
    const cell = lexitrain.el("td");
    const text = (facts.inner_front ? "·" : "") + facts.word + (facts.inner_back ? "·" : "");
    cell.append(lexitrain.el("span", "word", text));
    if (facts.symbols) cell.append(lexitrain.el("span", "symbols", facts.symbols));
    return cell;
  },

  // One row of an answer list: front hooks, the word, back hooks, definition (and what comes before).
  answerRow(facts, before) {
    const row = lexitrain.el("tr");
    row.append(...(before || []));
    row.append(lexitrain.el("td", "hooks front num", facts.front_hooks || ""), lexitrain.word(facts),
      lexitrain.el("td", "hooks", facts.back_hooks || ""), lexitrain.el("td", "definition", facts.definition || ""));
    return row;
  },

  // A table's columns with nothing in any row hidden, heading and all: words with no hooks leave no empty
  // Front and Back columns taking a phone's width from the definitions.
  hideEmptyColumns(table) {
    const rows = [...table.tBodies[0].rows];
    [...table.tHead.rows[0].cells].forEach((heading, i) => {
      const column = rows.map((row) => row.cells[i]).filter((cell) => cell);
      const empty = column.every((cell) => !cell.textContent.trim());
      for (const cell of [heading, ...column]) cell.hidden = empty;
    });
  },

  // A position's scores as the terminal says them, the player's first (`board_json`'s scores): "300 to 310".
  standing(board) {
    const [mine, theirs] = board.scores;
    return mine + " to " + theirs;
  },

  // A board's rows as the app sends them (`board_json`): column letters, row numbers, tiles and
  // premiums; `onSquare(r, c)` (optional) is called when a square is clicked.
  boardRows(data, onSquare) {
    const head = lexitrain.el("tr");
    head.append(lexitrain.el("th"), ...data.columns.map((c) => lexitrain.el("th", "", c)));
    const rows = data.rows.map((squares, r) => {
      const row = lexitrain.el("tr");
      row.append(lexitrain.el("th", "", r + 1));
      squares.forEach((square, c) => {
        const name = data.columns[c] + (r + 1);
        const cell = lexitrain.el("td", "square " + (square.tile ? "tile" + (square.blank ? " blank" : "") : square.premium)
          + (square.last ? " last" : ""), square.tile || square.premium);
        cell.dataset.square = name;
        cell.title = name + (square.blank ? " (a blank)" : "") + (square.last ? " (the last play)" : "");
        if (onSquare) cell.addEventListener("click", () => onSquare(r, c));
        row.append(cell);
      });
      return row;
    });
    return [head, ...rows];
  },

  // A play's verdict in one line (a position quiz or a position card): its score and rank, or a pass.
  playVerdict(outcome) {
    if (outcome.by === "sim" || outcome.by === "endgame") return lexitrain.analysedVerdict(outcome);
    if (!outcome.legal) return "Passed: the top play scores " + outcome.top_score;
    return (outcome.correct ? "Top score! " : "Not the top: ") + outcome.play + " scores " + outcome.score
      + " (rank " + outcome.rank + " of " + outcome.plays + " plays; the top scores " + outcome.top_score + ")";
  },

  // The verdict on a position judged by a simulation or the endgame solver (the play against the best).
  analysedVerdict(outcome) {
    const best = outcome.expected.join(" or ");
    if (!outcome.legal) return "Passed: the best is " + best;
    if (outcome.by === "sim") {
      if (outcome.correct) return "The best play! " + outcome.play + " scores " + outcome.score;
      const where = outcome.rank ? "rank " + outcome.rank + " of " + outcome.plays + " simulated" : "not simulated";
      return "Not the best: " + outcome.play + " scores " + outcome.score + " (" + where + "); the best is " + best;
    }
    const worth = (v) => (v > 0 ? "+" : "") + v;
    return (outcome.correct ? "Best! " : "Not the best: ") + outcome.play + " is worth " + worth(outcome.play_value)
      + " to the end; the best, " + best + ", is worth " + worth(outcome.value)
      + " (final spread " + worth(outcome.spread + outcome.value) + ")";
  },

  // What a position question asks, by what judges it (`by`), on the position quiz and on a card in the reviews.
  ASKED: { score: "What is the top-scoring play?", equity: "What is the top play by equity?",
    sim: "What is the best play, by simulation?", endgame: "Win the endgame: which first play?" },

  // What to type for a position question judged `by` a simulation, the endgame solver, or else the top play.
  playHelp(by) {
    const what = by === "endgame" ? "the first play of a best endgame line"
      : by === "sim" ? "the best play by simulation" : "the top play";
    return what + ", in GCG notation (8D QUITE across, H8 QUITE down)";
  },

  // A table row of CELLS, each [text] or [text, class] (the text may be nodes: a played word's spans): every table
  // of plays below is made of these.
  row(cells) {
    const row = lexitrain.el("tr");
    row.append(...cells.map(([content, className]) => {
      if (!Array.isArray(content)) return lexitrain.el("td", className || "", content);
      const cell = lexitrain.el("td", className || "");
      cell.append(...content);
      return cell;
    }));
    return row;
  },

  // A played word in GCG notation as nodes: a blank's letter (lowercase) in a span of its own, drawn apart from
  // the tiles beside it (CRUElTY's blank l is no capital I), its text still lowercase so a copy keeps the notation.
  playedWord(word) {
    return Array.from(String(word ?? "").matchAll(/[^a-z]+|[a-z]/g), ([part]) =>
      /^[a-z]$/.test(part) ? lexitrain.el("span", "blank", part) : document.createTextNode(part));
  },

  // An endgame's first plays as table rows (play, word, score, exact value), and a best line in one sentence.
  endgameRows(top) {
    return top.map((p) => lexitrain.row([[p.play], [lexitrain.playedWord(p.word), "word"], [p.score, "num"],
      [(p.value > 0 ? "+" : "") + p.value, "num"]]));
  },
  bestLine(sequence) {
    return "A best line: " + sequence.map((m) => m.position === "-" ? "pass" : m.position + " " + m.word + " " + m.score)
      .join(", ");
  },

  // A card's question as the reviews ask it (the club's "Your cards" too): a position's board (a move on it marked)
  // with what it asks, the rack and the score; a word to judge; or its letters, in PROMPT; what to type, in HELP.
  showQuestion(prompt, help, question) {
    const { el } = lexitrain;
    const choice = question.hint === "choice"; // a word shown, one of its choices typed (valid or phony?)
    prompt.classList.toggle("with-board", question.hint === "board");
    if (question.hint === "board") {
      const table = el("table", "board");
      table.append(...lexitrain.boardRows(question.board));
      for (const [r, c] of question.highlight || []) table.rows[r + 1].cells[c + 1].classList.add("last");
      const rack = el("div", "letters rack");
      const asks = question.asks || lexitrain.ASKED[question.by]; // a card by score asks nothing more
      const said = [asks, question.note].filter(Boolean).map((text) => el("p", "note", text));
      const standing = el("p", "note score", "score " + lexitrain.standing(question.board)
        + (question.board.opponent ? " · the opponent holds " + question.board.opponent : ""));
      prompt.replaceChildren(...said, table, rack, standing);
      lexitrain.letters(rack, Array.from(question.board.rack));
    } else lexitrain.letters(prompt, Array.from(choice ? question.word : question.prompt));
    help.textContent = choice ? question.choices.join(" or ") + "? (type v or p)"
      : question.hint === "board" ? question.answer_help || lexitrain.playHelp(question.by)
      : question.answers + (question.answers === 1 ? " answer" : " answers");
  },

  // The verdict on an answer in one line: a play's score and rank, a reading's lines, whether the word shown
  // is valid, or the words missed.
  answerVerdict(outcome, hint) {
    const head = outcome.correct ? "Right" : "Missed";
    return Array.isArray(outcome.verdict) ? (outcome.verdict.join(". ") || "No answer") + "."
      : hint === "board" ? lexitrain.playVerdict(outcome)
      : hint === "choice" ? head + ": " + outcome.verdict
      : head + (outcome.missing.length ? ": missing " + outcome.missing.join(" ") : "")
        + (outcome.wrong.length ? "; not answers: " + outcome.wrong.join(" ") : "");
  },

  // A card answered, as the reviews and the club's cards show it: its question stays, the answer box (PARTS.asking)
  // is put away, and PARTS.shown holds the verdict (PARTS.line: TEXT, coloured right or missed) and what the answer
  // showed (PARTS.tables: `showAnswers`) until the member presses PARTS.next (focused): the next card is drawn then,
  // not before, so a verdict is never read under another card's question.
  showAnswered(parts, outcome, hint, text) {
    parts.asking.hidden = true;
    parts.shown.hidden = false;
    parts.line.className = "verdict " + (outcome.correct ? "right" : "missed");
    parts.line.textContent = text;
    lexitrain.showAnswers(parts.tables, outcome.words, hint === "board", outcome);
    parts.next.hidden = false;
    parts.next.focus();
  },

  // After an answer, in SHOWN ({words: the words' box, answers: their table, plays: the plays' table, line: a
  // best line's paragraph}): the words' facts, or a position's top plays (an endgame's first plays, exactly valued,
  // and a best line; a simulation's table and how it was run: as the position quiz shows them), or the table the
  // kind sent (`table`). DETAILS is the verdict's (`top`, `table`, `by`, `sequence`, a simulation's `inferred`).
  showAnswers(shown, words, board, details) {
    const { el } = lexitrain;
    const table = details.table;
    const endgame = board && details.by === "endgame" && !table;
    const sim = board && details.by === "sim" && !table;
    shown.words.hidden = board || table !== undefined;
    shown.plays.hidden = !(board || table !== undefined);
    const head = table ? table.columns : endgame ? ["Play", "Word", "Score", "Value"] : sim ? lexitrain.SIM_HEADS
      : ["Position", "Word", "Score"];
    const numeric = (name, i) => !table && (sim ? !["Move", "Leave"].includes(name) : i >= 2);
    shown.plays.tHead.rows[0].replaceChildren(...head.map((name, i) => el("th", numeric(name, i) ? "num" : "", name)));
    shown.plays.tBodies[0].replaceChildren(...(table
      ? table.rows.map((cells) => lexitrain.row(cells.map((text) => [text])))
      : endgame ? lexitrain.endgameRows(details.top || []) : sim ? lexitrain.simRows(details.top || [])
      : lexitrain.playRows(board ? details.top || [] : [])));
    shown.line.hidden = !(endgame || sim);
    shown.line.textContent = endgame ? lexitrain.bestLine(details.sequence || []) : sim ? lexitrain.simNote(details) : "";
    shown.answers.tBodies[0].replaceChildren(...words.map((facts) => lexitrain.answerRow(facts)));
    lexitrain.hideEmptyColumns(shown.answers);
  },

  // A simulation's candidates as table rows (move, score, leave, win %, equity, spread, iterations), the heads
  // SIM_HEADS, and how it was run in one line: whether the opponent's rack was read from their last move
  // (`inferred`) changes what its win chances mean.
  SIM_HEADS: ["Move", "Score", "Leave", "Win %", "Equity", "Spread", "Iterations"],
  simRows(top) {
    return top.map((c) => lexitrain.row([[c.play], [c.score, "num"], [c.leave || "-"], [(100 * c.win).toFixed(1), "num"],
      [c.equity.toFixed(2), "num"], [c.spread.toFixed(2), "num"], [c.iterations, "num"]]));
  },
  simNote(outcome) {
    return outcome.iterations + " iterations, " + outcome.plies + " plies, seed " + outcome.seed + "; the opponent's rack "
      + (outcome.inferred ? "drawn from what their last move says of it" : "a random draw from the unseen tiles");
  },

  // The top plays as table rows: position (or the whole play), word (a blank's letter drawn apart), score.
  playRows(top) {
    return top.map((p) => lexitrain.row([[p.position || p.play], [lexitrain.playedWord(p.word), "word"],
      [p.score, "num"]]));
  },

  // The question a request answers (its id and token): the app refuses (409) one no longer on show.
  on(question, fields) {
    return Object.assign({}, fields || {}, { question: question.id, token: question.token });
  },

  // ACTION guarded against a second call while the first is on its way (a double click, a held key):
  // the extra calls are dropped, not queued.
  guarded(action) {
    let busy = false;
    return async (...args) => {
      if (busy) return;
      busy = true;
      try { return await action(...args); } finally { busy = false; }
    };
  },

  // Seconds as every clock of the app shows them, m:ss to the nearest second, with a minus past 0 (a game's
  // overtime). A countdown gives its seconds left rounded up, so that 0:00 is shown only when the time is up.
  clockText(seconds) {
    const whole = Math.round(Math.abs(seconds));
    return (seconds < 0 && whole > 0 ? "-" : "") + Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  },

  say(message) {
    const notice = document.getElementById("notice");
    if (notice) notice.textContent = message || "";
  },
};

for (const table of document.querySelectorAll("table[data-hide-empty]")) lexitrain.hideEmptyColumns(table);

// A bar chart's bars (the forecast, the stats): each as wide as its share (CSP allows no inline style).
for (const bar of document.querySelectorAll(".bar[data-share]")) {
  bar.style.width = Math.max(0.5, 100 * Number(bar.dataset.share)) + "%";
}

// A file dropped anywhere on an upload form (not only on its small file box) is the file it sends;
// the name box, if empty, takes the file's name.
for (const form of document.querySelectorAll("form[data-drop]")) {
  const input = form.querySelector("input[type=file]");
  const name = form.querySelector("input[name=name]");
  form.addEventListener("dragover", (event) => { event.preventDefault(); form.classList.add("dropping"); });
  form.addEventListener("dragleave", () => form.classList.remove("dropping"));
  form.addEventListener("drop", (event) => {
    event.preventDefault();
    form.classList.remove("dropping");
    const files = event.dataTransfer && event.dataTransfer.files;
    if (!files || !files.length) return;
    input.files = files;
    if (name && !name.value) name.value = files[0].name.replace(/\.txt$/i, "");
  });
}

// On a club, the header's Log out ends the member's session (the club's own route, outside /study), then goes
// to the club's page, which shows its login.
for (const button of document.querySelectorAll("button[data-log-out]")) {
  button.addEventListener("click", lexitrain.guarded(async () => {
    const response = await fetch(button.dataset.logOut, { method: "DELETE",
      headers: { "Accept": "application/json", "X-CSRF-Token": document.body.dataset.csrf } });
    if (!response.ok && response.status !== 401) return lexitrain.say("could not log out (" + response.status + ")");
    window.location.assign(button.dataset.then);
  }));
}

// A form that starts something is sent once: a second click while it is on its way does nothing.
for (const form of document.querySelectorAll("form[data-once]")) {
  form.addEventListener("submit", (event) => {
    if (form.dataset.sent) event.preventDefault();
    form.dataset.sent = "1";
  });
}
