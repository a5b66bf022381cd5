"use strict";
// Reviews: the day's cards one at a time, answered by typing or revealed and graded (keys 1-4).
(() => {
  const { api, el, say, on, guarded } = lexitrain;
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
      // (every card answered today, by any route: a quiz, a wall, the positions, not only these reviews)
      el("span", "", "Done today: " + today.reviews_answered + (today.reviews_answered === 1 ? " review, " : " reviews, ")
        + today.new_answered + " new"));
  }

  // After an answer: the words' facts, or a position's top plays, or the table the kind sent (common.js).
  const shownTables = { words: document.getElementById("words-part"), answers: document.getElementById("answers"),
                        plays: document.getElementById("plays"), line: document.getElementById("line") };
  function answers(words, board, details) { lexitrain.showAnswers(shownTables, words, board, details); }

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
    lexitrain.showQuestion(document.getElementById("prompt"), document.getElementById("answers-count"), question);
    box.value = "";
    refused.textContent = "";
    box.focus();
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
      mode = "shown";  // the verdict line: a play's score and rank, whether the word shown is valid, or the words missed
      lexitrain.showAnswered({ asking, shown: shownPart, line: document.getElementById("verdict"), tables: shownTables,
                               next }, state.last, hint, lexitrain.answerVerdict(state.last, hint));
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
