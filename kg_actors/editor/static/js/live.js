// The /ws change feed: one socket per tab, subscribed to the graph on screen, reconnecting by itself.
//
// States: "connecting" until the server confirms the subscription, then "live";
// "offline" from the moment the socket drops until a new one is confirmed. After
// an outage the page re-reads what it shows (events sent meanwhile are lost).

const RETRY_MS = 1000;

export class Live {
  constructor({ onEvent, onState, onResubscribed }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.onResubscribed = onResubscribed;
    this.projectPath = null;
    this.socket = null;
    this.wasOffline = false;
    this.waiters = [];
  }

  start() {
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    this.state("connecting");
    socket.onopen = () => this.sendSubscribe();
    socket.onmessage = (message) => this.receive(message);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.wasOffline = true;
      this.state("offline");
      setTimeout(() => this.connect(), RETRY_MS);
    };
  }

  // Resolves once the server confirms the subscription (or at once while offline: the reconnect re-subscribes).
  subscribe(projectPath) {
    this.projectPath = projectPath;
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.sendSubscribe();
    });
  }

  sendSubscribe() {
    this.socket.send(JSON.stringify({ type: "subscribe", project_path: this.projectPath }));
  }

  receive(message) {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (event.type === "connected" || event.type === "pong") return;
    if (event.type === "subscribed") {
      if (event.project_path !== this.projectPath) return; // an older subscription's answer
      this.state("live");
      const waiters = this.waiters.splice(0);
      waiters.forEach((resolve) => resolve(true));
      if (this.wasOffline) {
        this.wasOffline = false;
        this.onResubscribed();
      }
      return;
    }
    this.onEvent(event);
  }

  state(name) {
    this.current = name;
    this.onState(name);
  }
}
