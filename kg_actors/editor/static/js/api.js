// The REST client: same-origin JSON calls; a refusal arrives as an ApiError with the server's words.

export class ApiError extends Error {
  // `path`: what was asked, for an answer with no words of its own (a proxy's, an older server's bare 404).
  constructor(status, body, path = "") {
    super((body && body.error) || `HTTP ${status}${path ? ` from ${decodeURIComponent(path.split("?")[0])}` : ""}`);
    this.status = status;
    this.body = body || {};
  }
}

// No answer at all (the server stopped or restarting): the browser's own words ("Failed to fetch") say
// neither what happened nor what to do.
export class Unreachable extends Error {
  constructor() {
    super("the memory server cannot be reached (stopped, or restarting); start it with `kg start`");
  }
}

export function query(params) {
  const kept = Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== "");
  return new URLSearchParams(kept).toString();
}

export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Unreachable();
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data, path);
  return data;
}

// Where a graph lives, as every endpoint takes it.
export function where(view) {
  return { level: view.level, project_path: view.level === "project" ? view.projectPath : null };
}
