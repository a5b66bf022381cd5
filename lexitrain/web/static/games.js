"use strict";
// Cards from your games: the chosen .gcg files sent (their players asked first), then the cards made from them.
(() => {
  const { api, el, say, guarded } = lexitrain;
  const form = document.getElementById("games-form");
  const files = document.getElementById("games-files");
  const player = document.getElementById("games-player");
  const make = document.getElementById("games-make");
  const made = document.getElementById("games-made");

  // The games as one multipart body (the edge bounds it), with the form's other fields when asked.
  function body(withFields) {
    const data = new FormData();
    for (const file of files.files) data.append("games", file, file.name);
    if (withFields) {
      data.append("player", player.value);
      data.append("points", document.getElementById("games-points").value);
      if (document.getElementById("games-read-rack").checked) data.append("read_rack", "1");
    }
    return data;
  }

  // Lines for the files that did not read (file and line, as the command says them), or games noted.
  function listed(lines) {
    document.getElementById("games-skipped").replaceChildren(...lines.map((line) => el("li", "", line)));
  }

  // The players the chosen games name, to choose from (or every player's turns).
  const choose = guarded(async () => {
    say("");
    made.hidden = true;
    player.disabled = make.disabled = true;
    if (!files.files.length) return;
    try {
      const got = await api("POST", "/api/games/players", body(false));
      player.replaceChildren(...got.players.map((p) => {
        const option = el("option", "", p.name && p.name !== p.nick ? p.nick + " (" + p.name + ")" : p.nick);
        option.value = p.nick;
        return option;
      }), Object.assign(el("option", "", "every player"), { value: "" }));
      player.disabled = make.disabled = !got.players.length;
      if (got.skipped.length) say("skipped " + got.skipped.join("; skipped "));
    } catch (e) { say(e.message); }
  });

  const send = guarded(async () => {
    say("");
    make.disabled = true;
    make.textContent = "Analysing the games…";
    try {
      const got = await api("POST", "/api/games/cards", body(true));
      document.getElementById("games-said").textContent = got.said;
      listed([...got.skipped.map((line) => "skipped " + line), ...got.notes]);
      made.hidden = false;
    } catch (e) { say(e.message); }
    make.disabled = false;
    make.textContent = "Make the cards";
  });

  files.addEventListener("change", choose);
  form.addEventListener("drop", () => setTimeout(choose));  // (common.js puts the dropped files in the box)
  form.addEventListener("submit", (event) => { event.preventDefault(); send(); });
})();
