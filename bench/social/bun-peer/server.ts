// A peer for hotpath's social benchmarks: the social API of docs/SOCIAL.md on Bun with bun:sqlite, the
// way the challenge's Bun entries are built (one process, prepared statements, JSON.stringify of
// objects in the contract's key order, HS256 checked per request, each write committed before its
// answer). Written by the hotpath team; not a copy of a published entry.
import { Database } from "bun:sqlite";
import { createHmac, timingSafeEqual } from "node:crypto";

const path = process.env.SQLITE_PATH;
const secret = process.env.JWT_SECRET ?? "twelve-dollar-challenge";
if (!path) throw new Error("SQLITE_PATH is required");
const db = new Database(path);
db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON");
const started = Date.now();

const POST = `SELECT p.id, p.body, p.created_at, u.username AS author,
  (SELECT count(*) FROM likes l WHERE l.post_id = p.id) AS like_count
  FROM posts p JOIN users u ON u.id = p.user_id`;
const feedQuery = db.query(`${POST} ORDER BY p.created_at DESC, p.id DESC LIMIT 20`);
const postQuery = db.query(`${POST} WHERE p.id = ?`);
const ping = db.query("SELECT 1 AS one");
const insertPost = db.query("INSERT INTO posts (user_id, body) VALUES (?, ?) RETURNING id, created_at");
const postExists = db.query("SELECT 1 FROM posts WHERE id = ?");
const userExists = db.query("SELECT 1 FROM users WHERE id = ?");
const insertLike = db.query("INSERT OR IGNORE INTO likes (user_id, post_id) VALUES (?, ?)");

type Row = { id: number; body: string; created_at: string; author: string; like_count: number };
const post = (r: Row) => ({ id: r.id, body: r.body, created_at: r.created_at, author: r.author, like_count: r.like_count });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const error = (status: number, message: string) => json(status, { error: message });

type User = { id: number; username: string };
function authenticate(req: Request): User | Response {
  const header = req.headers.get("authorization");
  if (!header || !header.startsWith("Bearer ")) return error(401, "missing bearer token");
  const parts = header.slice(7).split(".");
  if (parts.length !== 3) return error(401, "invalid or expired token");
  let head: any, claims: any;
  try {
    head = JSON.parse(Buffer.from(parts[0], "base64url").toString());
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString());
  } catch {
    return error(401, "invalid or expired token");
  }
  if (head?.alg !== "HS256") return error(401, "invalid or expired token");
  const expected = createHmac("sha256", secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return error(401, "invalid or expired token");
  if (typeof claims?.exp !== "number" || claims.exp <= Date.now() / 1000) return error(401, "invalid or expired token");
  if (typeof claims.sub !== "string" || !/^[1-9][0-9]*$/.test(claims.sub) || typeof claims.username !== "string") {
    return error(401, "invalid token payload");
  }
  return { id: Number(claims.sub), username: claims.username };
}

const postId = (text: string) => (/^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : -1);

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  idleTimeout: 75,
  async fetch(req) {
    const url = new URL(req.url);
    const p = url.pathname;
    if (req.method === "GET" && p === "/health") {
      try {
        ping.get();
        return json(200, { status: "ok", db: "ok", uptime_s: Math.floor((Date.now() - started) / 1000) });
      } catch (e) {
        return json(503, { status: "degraded", db: "unreachable", error: String(e) });
      }
    }
    if (req.method === "GET" && p === "/feed") return json(200, { posts: (feedQuery.all() as Row[]).map(post) });
    const read = p.match(/^\/posts\/([^/]+)$/);
    if (req.method === "GET" && read) {
      const id = postId(read[1]);
      if (id < 0) return error(400, "invalid post id");
      const row = postQuery.get(id) as Row | null;
      return row ? json(200, { post: post(row) }) : error(404, "post not found");
    }
    if (req.method === "POST" && p === "/posts") {
      const user = authenticate(req);
      if (user instanceof Response) return user;
      const text = await req.text();
      let body: unknown;
      if (text.length > 0) {
        try {
          body = JSON.parse(text)?.body;
        } catch {
          return error(400, "malformed JSON body");
        }
      }
      if (typeof body !== "string" || body.trim().length === 0) return error(400, "body is required");
      const trimmed = body.trim();
      if ([...trimmed].length > 500) return error(400, "body must be at most 500 characters");
      if (!userExists.get(user.id)) return error(401, "invalid token payload");
      const row = insertPost.get(user.id, trimmed) as { id: number; created_at: string };
      return json(201, { post: { id: row.id, body: trimmed, created_at: row.created_at, author: user.username, like_count: 0 } });
    }
    const like = p.match(/^\/posts\/([^/]+)\/like$/);
    if (req.method === "POST" && like) {
      const user = authenticate(req);
      if (user instanceof Response) return user;
      const id = postId(like[1]);
      if (id < 0) return error(400, "invalid post id");
      if (!postExists.get(id)) return error(404, "post not found");
      if (!userExists.get(user.id)) return error(401, "invalid token payload");
      const fresh = insertLike.run(user.id, id).changes === 1;
      return json(fresh ? 201 : 200, { liked: true, already_liked: !fresh, post_id: id });
    }
    return error(404, "not found");
  },
  error() {
    return error(500, "internal server error");
  },
});
