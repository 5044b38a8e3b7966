// Talking to the server (docs/web.md): REST, the WebSocket, and the tokens kept per game.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, "The server cannot be reached. Is it running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    let message = data && (data.error || data.detail);
    if (Array.isArray(message)) message = message.map((d) => d.msg || String(d)).join("; ");
    throw new ApiError(response.status, message || `The server answered ${response.status}.`);
  }
  return data;
}

const KEY = (gameId) => `forest-shuffle:game:${gameId}`;

/** What this browser holds for a game: {tokens: {seat: token}, hotseat: bool}. */
export function loadSeats(gameId) {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
    if (raw && typeof raw === "object") return { tokens: raw.tokens || {}, hotseat: !!raw.hotseat };
  } catch (err) {
    /* a broken entry is ignored */
  }
  return { tokens: {}, hotseat: false };
}

export function saveSeats(gameId, seats) {
  try {
    localStorage.setItem(KEY(gameId), JSON.stringify(seats));
  } catch (err) {
    /* private mode: the tokens live in the URL only */
  }
}

/** Remember the seats of a game created here (from POST /api/games or a rematch). */
export function rememberCreated(created, hotseat) {
  const tokens = {};
  for (const seat of created.seats || []) if (seat.token) tokens[seat.seat] = seat.token;
  saveSeats(created.game_id, { tokens, hotseat });
  return tokens;
}

/**
 * A live connection to one game as one seat: WebSocket `state` messages, with polling while
 * the socket is down. onState(payload), onError(message, status).
 */
export class Live {
  constructor(gameId, token, { onState, onError, onConnection }) {
    this.gameId = gameId;
    this.token = token;
    this.onState = onState;
    this.onError = onError;
    this.onConnection = onConnection || (() => {});
    this.closed = false;
    this.socket = null;
    this.retry = 500;
    this.poller = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    let socket;
    try {
      socket = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws${q}`);
    } catch (err) {
      this.startPolling();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      this.stopPolling();
      this.onConnection(true);
    };
    socket.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (this.closed) return;
      if (msg.type === "state" && msg.payload) this.onState(msg.payload);
      else if (msg.type === "error") this.onError(msg.error || "The server refused.", msg.status || 400);
    };
    socket.onclose = () => {
      if (this.closed) return;
      this.onConnection(false);
      this.startPolling();
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  startPolling() {
    if (this.poller || this.closed) return;
    this.poller = setInterval(() => this.fetch().catch(() => {}), 2000);
  }

  stopPolling() {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  async fetch() {
    const payload = await api("GET", `/api/games/${encodeURIComponent(this.gameId)}`, { token: this.token });
    if (!this.closed) this.onState(payload);
    return payload;
  }

  async act(action, version) {
    const payload = await api("POST", `/api/games/${encodeURIComponent(this.gameId)}/actions`, {
      token: this.token, body: { action, version },
    });
    if (!this.closed) this.onState(payload);
    return payload;
  }

  close() {
    this.closed = true;
    this.stopPolling();
    if (this.socket) {
      this.socket.onclose = null;
      try {
        this.socket.close();
      } catch (err) {
        /* already closed */
      }
    }
  }
}
