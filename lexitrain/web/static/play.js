"use strict";
// A game against a bot: the board (click a square, type the letters), a rack to rearrange, both clocks live,
// the bot's moves as they come. The app judges every move; this page only draws and passes lines on.
(() => {
  const { api, el, say } = lexitrain;
  const name = document.getElementById("game").dataset.name;
  const board = document.getElementById("board");
  const rackBox = document.getElementById("rack");
  const line = document.getElementById("line");
  const refused = document.getElementById("refused");
  const status = document.getElementById("status");
  let state = null;
  let received = 0; // when the state came (ms), for the clocks
  let order = []; // the rack's tiles in the order the player put them
  let start = null; // [row, column] clicked
  let across = true;
  let placed = []; // [row, column, letter] typed onto the board, not played yet

  const squareName = (r, c) => state.board.columns[c] + (r + 1);
  const occupied = (r, c) => r >= 0 && c >= 0 && r < state.board.rows.length && c < state.board.columns.length
    && !!state.board.rows[r][c].tile;
  const inside = (r, c) => r >= 0 && c >= 0 && r < state.board.rows.length && c < state.board.columns.length;

  // The rack's tiles in the player's order: those still on it keep their places, new ones go at the end.
  function keepOrder(rack) {
    const left = Array.from(rack);
    const kept = [];
    for (const tile of order) {
      const at = left.indexOf(tile);
      if (at >= 0) { kept.push(tile); left.splice(at, 1); }
    }
    order = kept.concat(left);
  }

  // The rack's tiles not yet typed onto the board.
  function unplaced() {
    const left = order.slice();
    for (const [, , letter] of placed) {
      const tile = letter === letter.toUpperCase() ? letter : "?";
      const at = left.indexOf(tile);
      if (at >= 0) left.splice(at, 1);
    }
    return left;
  }

  function drawRack() {
    const left = unplaced();
    rackBox.replaceChildren(...order.map((tile, i) => {
      const node = el("span", "letter" + (tile === "?" ? " blank" : ""), tile);
      node.draggable = true;
      node.dataset.index = String(i);
      node.title = "drag to move it";
      node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", String(i)));
      node.addEventListener("dragover", (event) => event.preventDefault());
      node.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = Number(event.dataTransfer.getData("text/plain"));
        const [moved] = order.splice(from, 1);
        order.splice(i, 0, moved);
        drawRack();
      });
      return node;
    }));
    // dim the tiles typed onto the board
    const shown = [...rackBox.children];
    const used = order.slice();
    for (const tile of left) {
      const at = used.indexOf(tile);
      if (at >= 0) used[at] = null;
    }
    used.forEach((tile, i) => { if (tile !== null) shown[i].classList.add("used"); });
  }

  function drawBoard() {
    board.replaceChildren(...lexitrain.boardRows(state.board, (r, c) => clicked(r, c)));
    for (const [r, c, letter] of placed) {
      const cell = board.querySelector('[data-square="' + squareName(r, c) + '"]');
      cell.textContent = letter;
      cell.className = "square tile pending" + (letter !== letter.toUpperCase() ? " blank" : "");
    }
    if (start) {
      const cell = board.querySelector('[data-square="' + squareName(start[0], start[1]) + '"]');
      if (cell) cell.classList.add("start", across ? "across" : "down");
    }
  }

  function clicked(r, c) {
    if (!state || state.to_move !== "player" || state.track) return;
    if (start && start[0] === r && start[1] === c && !placed.length) across = !across;
    else { start = [r, c]; placed = []; }
    line.value = "";
    drawBoard();
    drawRack();
  }

  // The next empty square from the start (or after the last tile typed), skipping tiles on the board.
  function nextSquare() {
    const [dr, dc] = across ? [0, 1] : [1, 0];
    let [r, c] = placed.length ? placed[placed.length - 1] : [start[0] - dr, start[1] - dc];
    do { r += dr; c += dc; } while (inside(r, c) && occupied(r, c));
    return inside(r, c) ? [r, c] : null;
  }

  // The play typed onto the board in GCG notation: the whole word, '.' for the tiles already there.
  function notation() {
    if (!placed.length) return "";
    const [dr, dc] = across ? [0, 1] : [1, 0];
    let [r, c] = placed[0];
    while (occupied(r - dr, c - dc)) { r -= dr; c -= dc; }
    const first = [r, c];
    let text = "";
    while (inside(r, c)) {
      const typed = placed.find(([pr, pc]) => pr === r && pc === c);
      if (typed) text += typed[2];
      else if (occupied(r, c)) text += ".";
      else break;
      r += dr; c += dc;
    }
    const where = across ? (first[0] + 1) + state.board.columns[first[1]] : state.board.columns[first[1]] + (first[0] + 1);
    return where + " " + text;
  }

  function typeLetter(key) {
    if (!start) return false;
    const square = nextSquare();
    if (!square) return false;
    const letter = key.toUpperCase();
    const left = unplaced();
    let tile = null;
    if (left.includes(letter)) tile = letter;
    else if (left.includes("?")) tile = letter.toLowerCase(); // a letter not on the rack: a blank plays it
    if (tile === null) { refused.textContent = letter + " is not on your rack (and no blank is left)"; return true; }
    refused.textContent = "";
    placed.push([square[0], square[1], tile]);
    line.value = notation();
    drawBoard();
    drawRack();
    return true;
  }

  function clearPlaced() {
    placed = [];
    line.value = "";
    drawBoard();
    drawRack();
  }

  function tick() {
    if (!state) return;
    const passed = (Date.now() - received) / 1000;
    const shown = state.clock.slice();
    if (state.running === "player") shown[0] += state.timed ? -passed : passed;
    if (state.running === "bot") shown[1] += state.timed ? -passed : passed;
    const mine = document.getElementById("my-clock");
    const theirs = document.getElementById("bot-clock");
    mine.textContent = lexitrain.clockText(shown[0]);
    theirs.textContent = lexitrain.clockText(shown[1]);
    mine.classList.toggle("overtime", state.timed && shown[0] < 0);
    theirs.classList.toggle("overtime", state.timed && shown[1] < 0);
    mine.classList.toggle("running", state.running === "player");
    theirs.classList.toggle("running", state.running === "bot");
  }

  function show(next) {
    const turnChanged = !state || state.turn !== next.turn;
    state = next;
    received = Date.now();
    keepOrder(state.rack);
    if (turnChanged) { placed = []; start = null; }
    document.getElementById("rules").textContent = state.rules + " · bag " + state.bag;
    document.getElementById("my-score").textContent = state.scores[0];
    document.getElementById("bot-points").textContent = state.scores[1];
    document.getElementById("unseen-line").textContent = state.hide_unseen ? "The unseen tiles are hidden: track them."
      : "Unseen (" + state.unseen.length + "): " + state.unseen;
    const log = document.getElementById("log");
    log.replaceChildren(...state.log.map((m) => {
      const item = el("li", m.mine ? "mine" : "theirs", m.who + ": " + m.move + " " + (m.score >= 0 ? "+" : "") + m.score + " (" + m.total + ")");
      return item;
    }));
    log.scrollTop = log.scrollHeight;
    const mine = state.to_move === "player" && !state.finished;
    document.getElementById("move-form").hidden = !mine || !!state.track;
    document.getElementById("exchange-form").hidden = !mine || !!state.track || state.bag < 7;
    document.getElementById("challenge").disabled = !state.can_challenge;
    const track = document.getElementById("track-form");
    track.hidden = !state.track;
    if (state.track) {
      document.getElementById("track-label").textContent = "Tile tracking: name the " + state.track.count + " tiles you cannot see";
      document.getElementById("tiles").focus();
    }
    status.textContent = state.finished ? "" : state.to_move === "bot" ? state.bot.name + " is thinking..." : state.track ? "" : "Your move";
    document.getElementById("finished").hidden = !state.finished;
    document.getElementById("rack-part").hidden = state.finished;
    document.getElementById("unseen-line").hidden = state.finished;
    document.getElementById("how-to").hidden = state.finished;
    if (state.finished) {
      const [me, them] = state.end.scores;
      document.getElementById("result").textContent = "Game over: " + me + " to " + them + ", "
        + (state.end.winner === "you" ? "you win!" : state.end.winner === "draw" ? "a draw." : state.bot.name + " wins.");
      document.getElementById("review-link").href = (document.body.dataset.base || "") + "/games/" + name;
    }
    drawBoard();
    drawRack();
    tick();
  }

  async function botMoves() {
    while (state && state.to_move === "bot" && !state.finished) {
      try {
        const next = await api("POST", "/api/play/" + name + "/bot", { turn: state.turn });
        show(next);
        if (next.happened && next.happened.length) say("");
      } catch (e) { say(e.message); return; }
    }
  }

  const send = lexitrain.guarded(async (text) => {
    if (!state || state.to_move !== "player") return;
    try {
      const next = await api("POST", "/api/play/" + name + "/move", { turn: state.turn, line: text });
      if (next.refused) {
        refused.textContent = next.refused;
        show(next);
        return;
      }
      refused.textContent = "";
      show(next);
      await botMoves();
    } catch (e) {
      say(e.message);
      show(await api("GET", "/api/play/" + name));
    }
  });

  document.getElementById("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (line.value.trim()) send(line.value.trim());
  });
  document.getElementById("pass").addEventListener("click", () => send("pass"));
  document.getElementById("challenge").addEventListener("click", () => send("challenge"));
  document.getElementById("exchange-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const tiles = document.getElementById("exchange").value.trim();
    if (tiles) send("exchange " + tiles);
  });
  document.getElementById("shuffle").addEventListener("click", () => {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    drawRack();
  });
  document.getElementById("track-form").addEventListener("submit", lexitrain.guarded(async (event) => {
    event.preventDefault();
    try {
      const next = await api("POST", "/api/play/" + name + "/track", { turn: state.turn, tiles: document.getElementById("tiles").value });
      if (next.refused) { refused.textContent = next.refused; return; }
      const t = next.tracked;
      const verdict = document.getElementById("tracked");
      verdict.hidden = false;
      verdict.className = "verdict " + (t.tiles_right === t.tiles && !t.tiles_wrong ? "right" : "missed");
      verdict.textContent = "Tile tracking: " + t.tiles_right + " of " + t.tiles + " right (" + Math.round(100 * t.score) + "%)."
        + " Unseen: " + t.unseen + (t.wrong.length ? "; not unseen: " + t.wrong.join("") : "");
      document.getElementById("tiles").value = "";
      refused.textContent = "";
      show(next);
    } catch (e) { say(e.message); }
  }));

  // Letters typed with the board in focus (not in a text box) go onto the board from the square clicked.
  document.addEventListener("keydown", (event) => {
    if (!state || state.to_move !== "player" || state.track) return;
    const inBox = event.target instanceof HTMLInputElement;
    if (inBox && !(event.target === line && placed.length)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[a-zA-Z]$/.test(event.key) && start) {
      event.preventDefault();
      typeLetter(event.key);
    } else if (event.key === "Backspace" && placed.length) {
      event.preventDefault();
      placed.pop();
      line.value = notation();
      drawBoard();
      drawRack();
    } else if (event.key === "Escape") {
      clearPlaced();
    } else if (event.key === "Enter" && placed.length) {
      event.preventDefault();
      send(notation());
    } else if ((event.key === "ArrowRight" || event.key === "ArrowDown") && start && !placed.length) {
      event.preventDefault();
      across = event.key === "ArrowRight";
      drawBoard();
    }
  });

  // Leaving the page stops the clock (the game is saved as it stands; coming back starts it again).
  window.addEventListener("pagehide", () => {
    if (state && !state.finished) api("POST", "/api/play/" + name + "/pause", {}, true).catch(() => {});
  });

  setInterval(tick, 1000);
  api("GET", "/api/play/" + name).then((first) => { show(first); return botMoves(); }).catch((e) => say(e.message));
})();
