// Talking to the server (docs/web.md): REST, the WebSocket, and the tokens kept per game.

import { _, lang } from "./i18n.js";

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
    throw new ApiError(0, _("The server cannot be reached. Is it running?"));
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
    throw new ApiError(response.status, message || _("The server answered {status}.", { status: response.status }));
  }
  return data;
}

const KEY = (gameId) => `forest-shuffle:game:${gameId}`;

/** What this browser holds for a game: {tokens: {seat: token}, hotseat: bool}. */
export function loadSeats(gameId) {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
    if (raw && typeof raw === "object") return { tokens: raw.tokens || {}, hotseat: !!raw.hotseat, at: Number(raw.at) || 0 };
  } catch (err) {
    /* a broken entry is ignored */
  }
  return { tokens: {}, hotseat: false };
}

/** Every game this browser holds seats of: [{gameId, tokens, hotseat}], newest first. */
export function knownGames() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith("forest-shuffle:game:")) continue;
      const gameId = key.slice("forest-shuffle:game:".length);
      const seats = loadSeats(gameId);
      if (Object.keys(seats.tokens).length) out.push({ gameId, ...seats, at: seats.at || 0 });
    }
  } catch (err) {
    /* no local storage: nothing known */
  }
  return out.sort((a, b) => b.at - a.at);
}

export function saveSeats(gameId, seats) {
  try {
    localStorage.setItem(KEY(gameId), JSON.stringify({ ...seats, at: seats.at || Date.now() }));
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
 *
 * The server sends the log as increments (`log_from`, `log`, `log_total`: docs/web.md): this
 * keeps the entries it has (they never change) and asks every request and socket only for
 * the ones after; onState gets the payload with the whole log (`log_from` 0).
 */
export class Live {
  constructor(gameId, token, { onState, onError, onConnection }) {
    this.gameId = gameId;
    this.token = token;
    this.onState = onState;
    this.onError = onError;
    this.onConnection = onConnection || (() => {});
    this.closed = false;
    this.log = []; // this viewer's log entries so far
    this.socket = null;
    this.retry = 500;
    this.poller = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let socket;
    try {
      socket = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws${this.query(true)}`);
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
      if (msg.type === "state" && msg.payload) this.deliver(msg.payload);
      else if (msg.type === "error") this.onError(msg.error || _("The server refused."), msg.status || 400);
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

  /** `?log_from=N` (the entries held) and `lang` (the page's language: the server's words
   * come in it), with the token for a socket (REST sends a header). */
  query(withToken) {
    const q = new URLSearchParams();
    if (withToken && this.token) q.set("token", this.token);
    q.set("log_from", String(this.log.length));
    q.set("lang", lang);
    return `?${q}`;
  }

  /** Add a payload's log entries to the ones held, and pass it on with the whole log. */
  deliver(payload) {
    if (this.closed) return null;
    const from = Number.isInteger(payload.log_from) ? payload.log_from : 0;
    const entries = payload.log || [];
    const gap = from > this.log.length; // entries missing in between: fetch them
    if (!gap && from + entries.length > this.log.length) this.log.push(...entries.slice(this.log.length - from));
    const whole = { ...payload, log_from: 0, log: this.log.slice(), log_total: this.log.length };
    this.onState(whole);
    if (gap) this.fetch().catch(() => {});
    return whole;
  }

  async fetch() {
    const get = () => api("GET", `/api/games/${encodeURIComponent(this.gameId)}${this.query(false)}`, { token: this.token });
    let payload;
    try {
      payload = await get();
    } catch (err) {
      if (err.status !== 400 || !this.log.length) throw err;
      this.log = []; // the server does not know the log held here (beyond its own): start over
      payload = await get();
    }
    return this.deliver(payload);
  }

  async act(action, version) {
    const payload = await api("POST", `/api/games/${encodeURIComponent(this.gameId)}/actions${this.query(false)}`, {
      token: this.token, body: { action, version },
    });
    return this.deliver(payload);
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
