"use strict";
// The position quiz: the board drawn from the app's squares, one play typed in GCG notation.
(() => {
  const { api, letters, say } = lexitrain;
  const board = document.getElementById("board");
  const input = document.getElementById("play");
  const refused = document.getElementById("refused");
  const verdictPart = document.getElementById("verdict");
  const by = new URLSearchParams(location.search).get("by") || "score";
  let ident = null;
  let state = null;
  let across = true;
  let start = null; // [row, column] clicked

  function drawBoard(data) {
    board.replaceChildren(...lexitrain.boardRows(data, (r, c) => { start = [r, c]; setStart(); }));
  }

  function setStart() {
    if (!start || !state || !state.question) return;
    const [r, c] = start;
    const column = state.question.board.columns[c];
    const where = across ? (r + 1) + column : column + (r + 1);
    const word = input.value.replace(/^\s*\S+\s*/, "");
    input.value = where + " " + word;
    for (const node of board.querySelectorAll(".start")) node.classList.remove("start");
    board.querySelector('[data-square="' + column + (r + 1) + '"]').classList.add("start");
    input.focus();
  }

  // Undo is offered while the round goes on and a play of it stands.
  function showUndo() {
    const offered = state.question !== null && state.last !== null;
    document.getElementById("undo").hidden = document.getElementById("undo-keys").hidden = !offered;
  }

  function showQuestion() {
    const question = state.question;
    say("");
    showUndo();
    refused.textContent = "";
    document.getElementById("finished").hidden = question !== null;
    document.getElementById("play-form").hidden = question === null;
    if (question === null) return;
    document.getElementById("which").textContent = "Position " + question.number;
    drawBoard(question.board);
    letters(document.getElementById("rack"), Array.from(question.board.rack));
    document.getElementById("standing").textContent = "Score " + lexitrain.standing(question.board);
    const opponent = document.getElementById("opponent");
    opponent.hidden = !question.board.opponent;
    opponent.textContent = "The opponent holds " + question.board.opponent + " (the bag is empty)";
    input.value = "";
    input.focus();
  }

  function showVerdict(outcome) {
    verdictPart.hidden = false;
    const line = document.getElementById("verdict-line");
    line.className = "verdict " + (outcome.correct ? "right" : "missed");
    const analysed = outcome.by === "sim" || outcome.by === "endgame";
    line.textContent = lexitrain.playVerdict(outcome);
    document.getElementById("top-plays").hidden = analysed;
    document.getElementById("sim-table").hidden = outcome.by !== "sim";
    document.getElementById("endgame-table").hidden = outcome.by !== "endgame";
    document.getElementById("line").hidden = !analysed;
    if (outcome.by === "sim") {
      document.querySelector("#sim-table tbody").replaceChildren(...lexitrain.simRows(outcome.top));
      document.getElementById("line").textContent = lexitrain.simNote(outcome);
    } else if (outcome.by === "endgame") {
      document.querySelector("#endgame-table tbody").replaceChildren(...lexitrain.endgameRows(outcome.top));
      document.getElementById("line").textContent = lexitrain.bestLine(outcome.sequence);
    } else {
      document.querySelector("#top-plays tbody").replaceChildren(...lexitrain.playRows(outcome.top));
    }
    document.getElementById("play-form").hidden = true;
    document.getElementById("next").focus();
  }

  // Take the last play back (Session.undo, as !undo in the terminal): its card as it was, that position asked again.
  const undo = lexitrain.guarded(async () => {
    if (!state || state.question === null || state.last === null) return;
    try {
      state = await api("POST", "/api/position/" + ident + "/undo", lexitrain.on(state.question));
      verdictPart.hidden = true;
      start = null;
      showQuestion();
      say("Took back your last play: the position is asked again.");
    } catch (e) { say(e.message); }
  });

  const play = lexitrain.guarded(async () => {
    if (!state.question) return;
    try {
      const answer = await api("POST", "/api/position/" + ident + "/play", lexitrain.on(state.question, { play: input.value }));
      if (answer.refused) {
        refused.textContent = "Not a legal play: " + answer.refused;
        input.select();
        return;
      }
      state = answer;
      showUndo();
      showVerdict(answer.last);
    } catch (e) { say(e.message); }
  });
  document.getElementById("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    play();
  });
  document.getElementById("next").addEventListener("click", () => {
    verdictPart.hidden = true;
    start = null;
    showQuestion();
  });
  document.getElementById("undo").addEventListener("click", undo);
  document.addEventListener("keydown", (event) => {
    const ctrlZ = (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z";
    if (ctrlZ && !(event.target === input && input.value !== "")) { // in a box being typed, Ctrl+Z undoes the typing
      event.preventDefault();
      undo();
    }
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight" || event.key === "ArrowDown") {
      if (!start) return;
      event.preventDefault();
      across = event.key === "ArrowRight";
      setStart();
    }
  });

  document.getElementById("asked").textContent = lexitrain.ASKED[by] || lexitrain.ASKED.score;
  api("POST", "/api/position", { by }).then((first) => {
    ident = first.id;
    state = first;
    showQuestion();
  }).catch((e) => say(e.message));
})();
