// The connection to the server: one WebSocket, opened again (after a growing wait) whenever it
// closes, so a server restart or a sleeping laptop only pauses the game.

export class Link {
  constructor({ onOpen, onMessage, onStatus }) {
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.tries = 0;
    this.socket = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.tries = 0;
      this.onStatus(null);
      this.onOpen();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.tries += 1;
      const wait = Math.min(5000, 300 * 2 ** Math.min(this.tries, 5));
      this.onStatus(`The connection to the server was lost: trying again in ${Math.round(wait / 1000) || 1} s…`);
      setTimeout(() => this.open(), wait);
    });
  }

  /** Send a message; false when the connection is not open. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
