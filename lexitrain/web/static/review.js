"use strict";
// Reviews: the day's cards one at a time, answered by typing or revealed and graded (keys 1-4).
(() => {
  const { api, el, letters, say, answerRow, on, guarded } = lexitrain;
  const box = document.getElementById("answer");
  const asking = document.getElementById("asking");
  const grading = document.getElementById("grading");
  const shownPart = document.getElementById("shown");
  const next = document.getElementById("next");
  const refused = document.getElementById("refused");
  let ident = null;
  let state = null;
  let mode = "asking"; // asking, grading (answer revealed), shown (verdict on a typed answer)

  function showToday(today) {
    if (!today) return;
    const node = document.getElementById("today");
    node.replaceChildren(
      // (the reviews now and later today add up to the due chart's today)
      el("span", "", "Reviews due now: " + today.due_now),
      el("span", "", "Later today: " + today.due_later_today),
      ...(today.reviews_left < today.due_now ? [el("span", "", "today's limit leaves " + today.reviews_left)] : []),
      el("span", "", "New left: " + today.new_left),
      el("span", "", "Done today: " + today.reviews_done + (today.reviews_done === 1 ? " review, " : " reviews, ")
        + today.new_done + " new"));
  }

  // After an answer: the words' facts, or a position's top plays (an endgame's first plays, exactly valued, and
  // a best line, as the position quiz shows them), or the table the kind sent (`table`). SHOWN is the verdict's
  // details (`top`, `table`, `by`, `sequence`).
  function answers(words, board, shown) {
    const table = shown.table;
    const endgame = board && shown.by === "endgame" && !table;
    document.getElementById("words-part").hidden = board || table !== undefined;
    document.getElementById("plays").hidden = !(board || table !== undefined);
    const head = table ? table.columns : endgame ? ["Play", "Word", "Score", "Value"] : ["Position", "Word", "Score"];
    document.querySelector("#plays thead tr").replaceChildren(...head.map((name, i) =>
      el("th", !table && i >= 2 ? "num" : "", name)));
    document.querySelector("#plays tbody").replaceChildren(...(table
      ? table.rows.map((cells) => { const row = el("tr"); row.append(...cells.map((c) => el("td", "", c))); return row; })
      : endgame ? lexitrain.endgameRows(shown.top || []) : lexitrain.playRows(board ? shown.top || [] : [])));
    const line = document.getElementById("line");
    line.hidden = !endgame;
    line.textContent = endgame ? lexitrain.bestLine(shown.sequence || []) : "";
    document.querySelector("#answers tbody").replaceChildren(...words.map((facts) => answerRow(facts)));
    lexitrain.hideEmptyColumns(document.getElementById("answers"));
  }

  // Undo is offered while the round goes on and an answer of it stands.
  function showUndo() {
    const offered = state.question !== null && state.last !== null;
    document.getElementById("undo").hidden = document.getElementById("undo-keys").hidden = !offered;
  }

  function ask() {
    mode = "asking";
    say("");
    showUndo();
    const question = state.question;
    asking.hidden = grading.hidden = shownPart.hidden = true;
    document.getElementById("finished").hidden = question !== null;
    if (question === null) {
      document.getElementById("prompt").replaceChildren();
      document.getElementById("which").textContent = state.summary
        ? state.summary.correct + "/" + state.summary.questions + " right this session" : "";
      document.getElementById("answers-count").textContent = "";
      return;
    }
    asking.hidden = false;
    document.getElementById("which").textContent = "Card " + question.number + " · " + question.kind;
    const choice = question.hint === "choice"; // a word shown, one of its choices typed (valid or phony?)
    const prompt = document.getElementById("prompt");
    prompt.classList.toggle("with-board", question.hint === "board");
    if (question.hint === "board") { // a position card: what it asks, the board (a move on it marked), the rack
      const table = el("table", "board");
      table.append(...lexitrain.boardRows(question.board));
      for (const [r, c] of question.highlight || []) table.rows[r + 1].cells[c + 1].classList.add("last");
      const rack = el("div", "letters rack");
      const asks = question.asks || lexitrain.ASKED[question.by]; // a card by score asks nothing more
      const said = [asks, question.note].filter(Boolean).map((text) => el("p", "note", text));
      const standing = el("p", "note score", "score " + lexitrain.standing(question.board)
        + (question.board.opponent ? " · the opponent holds " + question.board.opponent : ""));
      prompt.replaceChildren(...said, table, rack, standing);
      letters(rack, Array.from(question.board.rack));
    } else letters(prompt, Array.from(choice ? question.word : question.prompt));
    document.getElementById("answers-count").textContent = choice ? question.choices.join(" or ") + "? (type v or p)"
      : question.hint === "board" ? question.answer_help || lexitrain.playHelp(question.by)
      : question.answers + (question.answers === 1 ? " answer" : " answers");
    box.value = "";
    refused.textContent = "";
    box.focus();
  }

  // The verdict line: a play's score and rank, whether the word shown is valid, or the words missed.
  function verdict(outcome, hint) {
    const line = document.getElementById("verdict");
    line.className = "verdict " + (outcome.correct ? "right" : "missed");
    const head = outcome.correct ? "Right" : "Missed";
    line.textContent = Array.isArray(outcome.verdict) ? (outcome.verdict.join(". ") || "No answer") + "."
      : hint === "board" ? lexitrain.playVerdict(outcome)
      : hint === "choice" ? head + ": " + outcome.verdict
      : head + (outcome.missing.length ? ": missing " + outcome.missing.join(" ") : "")
        + (outcome.wrong.length ? "; not answers: " + outcome.wrong.join(" ") : "");
  }

  const answer = guarded(async () => {
    const text = box.value.trim();
    if (!text) return reveal();
    if (mode !== "asking") return;
    try {
      const hint = state.question.hint;
      const reply = await api("POST", "/api/review/" + ident + "/answer", on(state.question, { text }));
      if (reply.refused) { // not an answer this card takes (an illegal play, not v or p): the same card, try again
        refused.textContent = reply.refused;
        box.select();
        return;
      }
      state = reply;
      say("");
      showUndo();
      showToday(state.today);
      mode = "shown";
      asking.hidden = true;
      shownPart.hidden = false;
      verdict(state.last, hint);
      answers(state.last.words, hint === "board", state.last);
      next.hidden = false;
      next.focus();
    } catch (e) { say(e.message); }
  });

  const reveal = guarded(async () => {
    if (mode !== "asking") return;
    try {
      const shown = await api("POST", "/api/review/" + ident + "/reveal", on(state.question));
      mode = "grading";
      asking.hidden = true;
      grading.hidden = shownPart.hidden = false;
      next.hidden = true;
      const hint = state.question.hint;
      const line = document.getElementById("verdict");
      const said = Array.isArray(shown.details.verdict) ? shown.details.verdict.map((line) => line + ". ").join("")
        : hint === "choice" ? shown.details.verdict + ". " : "";
      line.textContent = said + "How well did you know it?";
      line.className = "verdict";
      answers(shown.words, hint === "board", shown.details);
      grading.querySelector(".good").focus();
    } catch (e) { say(e.message); }
  });

  const grade = guarded(async (rating) => {
    if (mode !== "grading") return;
    try {
      state = await api("POST", "/api/review/" + ident + "/grade", on(state.question, { rating }));
      showToday(state.today);
      ask();
    } catch (e) { say(e.message); }
  });

  // Take the last answer back (Session.undo, as !undo in the terminal): its card as it was, the day's
  // counts with it, and that card asked again. Refused with the app's reason (the card was answered since).
  const undo = guarded(async () => {
    if (!state || state.question === null || state.last === null) return;
    try {
      state = await api("POST", "/api/review/" + ident + "/undo", on(state.question));
      showToday(state.today);
      ask();
      say("Took back your answer to " + state.undone.prompt + ": it is asked again.");
    } catch (e) { say(e.message); }
  });

  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); answer(); }
  });
  document.getElementById("reveal").addEventListener("click", reveal);
  for (const button of grading.querySelectorAll("button")) {
    button.addEventListener("click", () => grade(Number(button.dataset.rating)));
  }
  next.addEventListener("click", ask);
  document.getElementById("undo").addEventListener("click", undo);
  document.addEventListener("keydown", (event) => {
    const ctrlZ = (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === "z";
    if (ctrlZ && !(event.target === box && box.value !== "")) { // in a box being typed, Ctrl+Z undoes the typing
      event.preventDefault();
      undo();
    } else if (mode === "grading" && ["1", "2", "3", "4"].includes(event.key)) {
      event.preventDefault();
      grade(Number(event.key));
    } else if (mode === "shown" && event.key === "Enter" && event.target !== next) {
      event.preventDefault();
      ask();
    }
  });

  api("POST", "/api/review", {}).then((first) => {
    ident = first.id;
    state = first;
    showToday(first.today);
    ask();
  }).catch((e) => say(e.message));
})();
