"""HTTP benchmark: the melds endpoint against ``/healthz`` of the same app, printed as ratios.

    python -m bench.bench_http                       # everything (a few minutes)
    python -m bench.bench_http --only in-process     # or: gunicorn, probes
    python -m bench.bench_http --only in-process --clock cpu   # CPU time: steadier when loaded
    python -m bench.bench_http --only profile        # cProfile of 250 Game Flip Flop misses
    python -m bench.bench_http --only profile --profile-backend redis   # the app with Redis

Three parts, each measured in one run so the ratios compare like with like on a shared machine:

1. **In process** (Flask test client, in-process cache), one client interleaving
   ``GET /healthz`` and ``melds`` requests, each round in a new (seeded) random order: cache
   MISS for Game Flip Flop and Triple Tunk 6-card hands, Three Thirteen 12-card hands (round 10)
   with ``limit`` 20, and a cache HIT.
   Targets: MISS p50 <= 3x healthz (Game Flip Flop, Triple Tunk), <= 5x (Three Thirteen);
   HIT <= 1.1x.
2. **gunicorn + Redis** (``gunicorn.conf.py``, its own ``redis-server``), driven by ``wrk``
   (keep-alive; installed with apt-get when missing and root) at 8 and 32 connections:
   ``/healthz``, a cached melds request, uncached Game Flip Flop and Triple Tunk melds (a random
   hand per request, from a Lua script), each in ``--slices`` interleaved runs so a neighbour's
   burst of load hits every scenario alike. Also printed: the CPU gunicorn and redis used per
   request (a figure other processes on the machine barely move). Targets: cached >= 0.85x
   healthz throughput and p99 <= 1.3x healthz p99; uncached >= 0.4x healthz throughput.
3. **Probes under load**: five maximal requests (Triple Tunk knock, 6 players, at the table's
   work cap of 986 samples, precision 0.001) at once while ``/healthz`` and ``/readyz`` are
   polled ten times a second; target p99 <= 100 ms.
4. **Profile** (``--only profile``, not part of the default run): cProfile over
   ``--profile-requests`` distinct Game Flip Flop cache misses in process (access log off): CPU
   per request, function calls per request, each layer's share of the time and of the calls
   (engine, validation, dump, cache, Flask/Werkzeug, the test client) and the functions with the
   most own time. ``--profile-backend redis``: the app alone (WSGI calls with prebuilt environs,
   no test client, no server) against its own ``redis-server``: CPU per request of ``/healthz``
   and of Game Flip Flop and Triple Tunk misses, a CPU-time profile of the misses by layer (the
   Redis client among them) and the Redis commands each miss sent.

``--workers`` and ``--threads`` set ``WEB_CONCURRENCY`` and ``GUNICORN_THREADS`` for parts 2-3.

Everything listens on 127.0.0.1 free ports; every part is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
GFF = "/v1/games/game-flip-flop/melds"
TT = "/v1/games/triple-tunk/melds"
T13 = "/v1/games/three-thirteen/melds"
TT_KNOCK = "/v1/games/triple-tunk/knock"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
STD_DECK = [rank + suit for suit in "SHDC" for rank in RANKS]
TT_DECK = [c + s + n for c in "RYGBK" for s in "CHTSB" for n in "1234?"]
CACHED_BODY = {"hand": ["AS", "2S", "3S", "7D", "7C", "KH"]}
# The heaviest Triple Tunk knock the API accepts: 6 players at the table's work cap.
MAXIMAL_KNOCK: dict[str, Any] = {
    "hand": ["RH1", "YC2", "GT2", "BS3", "RC1"],
    "players": 6,
    "samples": 986,
    "precision": 0.001,
    "opponents": [
        {"seat": k, "turns": 50, "discarded": [card]}
        for k, card in enumerate(["RC4", "YC4", "GC4", "BC4", "RT4"], start=1)
    ],
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def verdict(value: float, limit: float, higher_is_better: bool = False) -> str:
    ok = value >= limit if higher_is_better else value <= limit
    return "met" if ok else "MISSED"


# --- 1. in process -------------------------------------------------------------------------------


def in_process(rounds: int, seed: int, clock: str = "wall") -> None:
    """Interleaved latencies through the Flask test client; ratios to /healthz.

    ``clock`` "wall" times each request by ``time.perf_counter``; "cpu" by this thread's CPU time
    (``time.thread_time``), which a machine loaded by other processes does not inflate.
    """
    timer = time.thread_time if clock == "cpu" else time.perf_counter
    from api.app import create_app

    app = create_app({"TESTING": True, "REDIS_URL": None, "CACHE_MAX_ENTRIES": 100_000})
    client = app.test_client()
    rng = random.Random(seed)

    def post(path: str, body: dict[str, Any]) -> Callable[[], Any]:
        raw = json.dumps(body).encode()
        return lambda: client.post(path, data=raw, content_type="application/json")

    def fresh(path: str, deck: list[str], size: int, extra: dict[str, Any]) -> Callable[[], Any]:
        def call() -> Any:
            hand = rng.sample(deck, size)
            return post(path, {"hand": hand, **extra})()

        return call

    ops: dict[str, Callable[[], Any]] = {
        "healthz": lambda: client.get("/healthz"),
        "GFF MISS 6": fresh(GFF, STD_DECK, 6, {}),
        "TT MISS 6": fresh(TT, TT_DECK, 6, {}),
        "T13 MISS 12 limit 20": fresh(T13, STD_DECK, 12, {"round": 10, "limit": 20}),
        "GFF HIT": post(GFF, CACHED_BODY),
    }
    for op in ops.values():  # warm every path (imports, first schema use)
        for _ in range(20):
            op()
    times: dict[str, list[float]] = {name: [] for name in ops}
    # Each round runs every request once, in a new random order: in a fixed order the request
    # after the heaviest one (Three Thirteen) pays for its garbage and cold caches every time.
    order = list(ops.items())
    shuffler = random.Random(seed + 1)
    for _ in range(rounds):
        shuffler.shuffle(order)
        for name, op in order:
            start = timer()
            response = op()
            times[name].append(timer() - start)
            assert response.status_code == 200, (name, response.get_data()[:200])
    base = statistics.median(times["healthz"])
    targets = {"GFF MISS 6": 3.0, "TT MISS 6": 3.0, "T13 MISS 12 limit 20": 5.0, "GFF HIT": 1.1}
    print(
        f"In process (Flask test client, in-process cache), {rounds} rounds of every request in "
        f"a shuffled order, {clock} clock:"
    )
    print(f"  {'request':<22} {'p50 ms':>7} {'p99 ms':>7} {'ratio':>6}  target")
    for name, values in times.items():
        p50 = statistics.median(values)
        ratio = p50 / base
        goal = targets.get(name)
        note = f"<= {goal:g}x {verdict(ratio, goal)}" if goal else ""
        print(
            f"  {name:<22} {p50 * 1000:7.3f} {percentile(values, 99) * 1000:7.3f} "
            f"{ratio:5.2f}x  {note}"
        )
    app_hz, app_hit = _app_only(app, rounds * 4, timer)
    print(f"  without the test client (prebuilt WSGI environs, the app's own work): healthz "
          f"{app_hz * 1000:.3f} ms, GFF HIT {app_hit * 1000:.3f} ms = {app_hit / app_hz:.2f}x "
          "(information; the targets are the test-client figures above)")  # fmt: skip
    print()


def _app_only(app: Any, rounds: int, timer: Callable[[], float]) -> tuple[float, float]:
    """p50 of ``/healthz`` and of the cached melds request called as WSGI, environs prebuilt.

    The test client builds every request (a POST with a body costs it more than a GET); this
    times only what the app does with a request, as a server would hand it over.
    """
    import io

    from werkzeug.test import EnvironBuilder

    raw = json.dumps(CACHED_BODY).encode()
    environs = {
        "healthz": (EnvironBuilder(path="/healthz").get_environ(), b""),
        "hit": (EnvironBuilder(path=GFF, method="POST", data=raw,
                               content_type="application/json").get_environ(), raw),
    }  # fmt: skip

    def call(name: str) -> None:
        environ, body = environs[name]
        environ = {**environ, "wsgi.input": io.BytesIO(body)}
        chunks = app.wsgi_app(environ, lambda status, headers, exc_info=None: None)
        b"".join(chunks)
        chunks.close()

    times: dict[str, list[float]] = {"healthz": [], "hit": []}
    order = list(times)
    shuffler = random.Random(rounds)
    for _ in range(50):
        call("healthz")
        call("hit")
    for _ in range(rounds):
        shuffler.shuffle(order)
        for name in order:
            start = timer()
            call(name)
            times[name].append(timer() - start)
    return statistics.median(times["healthz"]), statistics.median(times["hit"])


# --- 4. profile of Game Flip Flop misses ------------------------------------------------------

_LAYERS = (  # (label, substrings of a function's file name), first match wins
    ("engine", ("/engine/",)),
    ("api: validation (schemas, fields)", ("/api/schemas/", "/api/fields.py")),
    ("api: melds view and dump", ("/api/resources/", "/api/fastdump.py")),
    ("api: cache", ("/api/cache.py",)),
    ("api: other (errors, logs, metrics, ...)", ("/api/",)),
    ("marshmallow + webargs", ("/marshmallow/", "/webargs/")),
    ("flask-smorest", ("/flask_smorest/",)),
    ("redis client (redis-py, hiredis)", ("/redis/", "/hiredis/")),
    ("test client (werkzeug.test, flask.testing)", ("/werkzeug/test.py", "/flask/testing.py")),
    ("flask + werkzeug", ("/flask/", "/werkzeug/")),
)


def _layer(filename: str) -> str:
    return next(
        (name for name, parts in _LAYERS if any(p in filename for p in parts)), "python stdlib"
    )


def profile_part(requests: int, seed: int, top: int = 25) -> None:
    """cProfile over ``requests`` distinct Game Flip Flop misses in process (access log off).

    Each layer's share is the own time of its functions, plus the own time of the built-ins
    (``len``, ``dict.get``, ...) they called, so a built-in counts where it was called from.
    """
    import cProfile
    import logging
    import pstats

    from api.app import create_app

    logging.getLogger("api.access").disabled = True
    app = create_app({"TESTING": True, "REDIS_URL": None, "CACHE_MAX_ENTRIES": 100_000})
    client = app.test_client()
    rng = random.Random(seed)
    bodies = [json.dumps({"hand": rng.sample(STD_DECK, 6)}).encode() for _ in range(requests + 50)]
    for raw in bodies[:50]:  # warm-up: imports, first schema use
        client.post(GFF, data=raw, content_type="application/json")
    profiler = cProfile.Profile()
    cpu_start = time.thread_time()
    profiler.enable()
    for raw in bodies[50:]:
        response = client.post(GFF, data=raw, content_type="application/json")
        assert response.status_code == 200 and response.headers["X-Cache"] == "MISS"
    profiler.disable()
    cpu = time.thread_time() - cpu_start
    rows = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in rows.values())
    by_layer, calls = _tally(rows, requests)
    print(f"Profile: {requests} Game Flip Flop melds misses in process under cProfile: "
          f"{cpu / requests * 1e6:.0f} us CPU per request (profiler overhead included), "
          f"{sum(calls.values()) / requests:.0f} function calls per request")  # fmt: skip
    print(f"  {'layer':<44} {'time':>6} {'calls':>6}")
    for label, seconds in sorted(by_layer.items(), key=lambda kv: -kv[1]):
        print(f"  {label:<44} {seconds / total:6.1%} {calls.get(label, 0) / requests:6.0f}")
    print(f"  top {top} functions by own time (share, calls per request):")
    ranked = sorted(rows.items(), key=lambda kv: -kv[1][2])[:top]
    for (filename, line, name), (_, count, own, _, _) in ranked:
        short = filename.split("site-packages/")[-1].replace(str(REPO_ROOT) + "/", "")
        print(f"  {own / total:6.1%} {count / requests:6.1f}  {short}:{line}({name})")
    print()


def _tally(rows: dict[Any, Any], requests: int) -> tuple[dict[str, float], dict[str, int]]:
    """Own time and calls per layer; a built-in is charged to the layer that called it."""
    by_layer: dict[str, float] = {}
    calls: dict[str, int] = {}
    for (filename, _, _), (_, n, own, _, callers) in rows.items():
        if filename != "~":
            label = _layer(filename)
            by_layer[label] = by_layer.get(label, 0.0) + own
            calls[label] = calls.get(label, 0) + n
            continue
        for (caller_file, _, _), caller_row in callers.items():
            label = _layer(caller_file) if caller_file != "~" else "python stdlib"
            by_layer[label] = by_layer.get(label, 0.0) + caller_row[2]
            calls[label] = calls.get(label, 0) + caller_row[1]
    return by_layer, calls


def profile_redis_part(requests: int, seed: int, top: int = 20) -> None:
    """The app alone (WSGI, environs prebuilt, no server) with a real ``redis-server``: CPU per
    request of ``/healthz`` and of Game Flip Flop and Triple Tunk melds misses, then a CPU-time
    cProfile of the misses by layer (access log on, to a file, as under gunicorn).

    This is the part of an uncached request that the app adds over ``/healthz``: validation,
    engine, dump, cache keys and the Redis round trips of a miss.
    """
    import cProfile
    import io
    import logging
    import pstats

    from werkzeug.test import EnvironBuilder

    with tempfile.TemporaryDirectory(prefix="tunk-profile-") as tmp:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server not found (apt-get install redis-server)")
        port = free_port()
        redis_proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", tmp],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_for(port, redis_proc)
            from api.app import create_app

            access = logging.getLogger("api.access")
            app = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "STATE_DIR": tmp})
            handler = logging.FileHandler(Path(tmp) / "access.log")
            handler.setFormatter(access.handlers[0].formatter if access.handlers else None)
            saved = access.handlers[:], access.propagate
            access.handlers, access.propagate = [handler], False  # as gunicorn: to a log file
            rng = random.Random(seed)

            def environ(path: str, body: dict[str, Any] | None) -> tuple[dict[str, Any], bytes]:
                if body is None:
                    return EnvironBuilder(path=path).get_environ(), b""
                raw = json.dumps(body).encode()
                built = EnvironBuilder(
                    path=path, method="POST", data=raw, content_type="application/json"
                )
                return built.get_environ(), raw

            def call(pair: tuple[dict[str, Any], bytes]) -> None:
                env, raw = pair
                chunks = app.wsgi_app({**env, "wsgi.input": io.BytesIO(raw)}, lambda *a: None)
                b"".join(chunks)
                chunks.close()

            def misses(path: str, deck: list[str]) -> list[tuple[dict[str, Any], bytes]]:
                hands = {tuple(rng.sample(deck, 6)) for _ in range(3 * requests)}
                return [environ(path, {"hand": list(h)}) for h in list(hands)[: 2 * requests]]

            healthz = environ("/healthz", None)
            gff, tt = misses(GFF, STD_DECK), misses(TT, TT_DECK)
            for pair in [healthz] * 50 + gff[:25] + tt[:25]:  # warm-up
                call(pair)
            gff, tt = gff[25:], tt[25:]

            def cpu_us(pairs: list[tuple[dict[str, Any], bytes]]) -> float:
                start = time.thread_time()
                for pair in pairs:
                    call(pair)
                return (time.thread_time() - start) / len(pairs) * 1e6

            half = requests // 2
            hz = [cpu_us([healthz] * half)]
            g = cpu_us(gff[:half])
            hz.append(cpu_us([healthz] * half))
            t = cpu_us(tt[:half])
            hz.append(cpu_us([healthz] * half))
            base = statistics.median(hz)
            print(f"Profile (app alone, WSGI, with redis-server): CPU per request /healthz "
                  f"{base:.0f} us; Game Flip Flop miss {g:.0f} us ({g / base:.2f}x); "
                  f"Triple Tunk miss {t:.0f} us ({t / base:.2f}x)")  # fmt: skip
            profiler = cProfile.Profile(time.thread_time)  # CPU time: Redis waits are not work
            rest = gff[half : 2 * half] + tt[half : 2 * half]
            profiler.enable()
            for pair in rest:
                call(pair)
            profiler.disable()
            access.handlers, access.propagate = saved
            handler.close()
            rows = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
            total = sum(row[2] for row in rows.values())
            by_layer, calls = _tally(rows, len(rest))
            print(f"  {len(rest)} misses under cProfile (CPU time), "
                  f"{sum(calls.values()) / len(rest):.0f} function calls per request")  # fmt: skip
            print(f"  {'layer':<44} {'time':>6} {'calls':>6}")
            for label, seconds in sorted(by_layer.items(), key=lambda kv: -kv[1]):
                print(
                    f"  {label:<44} {seconds / total:6.1%} {calls.get(label, 0) / len(rest):6.0f}"
                )
            gets = sum(
                n
                for (f, _, name), (_, n, *_r) in rows.items()
                if name == "get" and "/redis/commands/" in f
            )
            sets = sum(
                n
                for (f, _, name), (_, n, *_r) in rows.items()
                if name == "set" and "/redis/commands/" in f
            )
            direct = sum(
                n
                for (f, _, name), (_, n, *_r) in rows.items()
                if name == "execute" and f.endswith("api/cache/redis_conn.py")
            )
            pipes = sum(
                n
                for (f, _, name), (_, n, *_r) in rows.items()
                if name == "execute" and "/redis/client.py" in f
            )
            print(f"  Redis per miss: {gets / len(rest):.2f} GET, {sets / len(rest):.2f} SET "
                  f"through redis-py commands, {direct / len(rest):.2f} commands direct "
                  f"(DirectCommands), {pipes / len(rest):.2f} pipelines")  # fmt: skip
            print(f"  top {top} functions by own time (share, calls per request):")
            ranked = sorted(rows.items(), key=lambda kv: -kv[1][2])[:top]
            for (filename, line, name), (_, count, own, _, _) in ranked:
                short = filename.split("site-packages/")[-1].replace(str(REPO_ROOT) + "/", "")
                print(f"  {own / total:6.1%} {count / len(rest):6.1f}  {short}:{line}({name})")
            with app.app_context():
                from api.cache.store import current_cache

                current_cache().backend.close()  # type: ignore[attr-defined]
        finally:
            redis_proc.terminate()
            redis_proc.wait(timeout=10)
    print()


# --- processes -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"process exited ({proc.returncode}) before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def start_service(
    workdir: Path, workers: int | None, env_extra: dict[str, str], threads: int | None = None
) -> tuple[list[subprocess.Popen[bytes]], int]:
    """redis-server and gunicorn on free ports; returns the processes and the HTTP port."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server not found (apt-get install redis-server)")
    redis_port, http_port = free_port(), free_port()
    redis_proc = subprocess.Popen(
        [binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(workdir), "--maxmemory", "256mb",
         "--maxmemory-policy", "allkeys-lru"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    wait_for(redis_port, redis_proc)
    env = {
        **os.environ,
        "PORT": str(http_port),
        "BIND_HOST": "127.0.0.1",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "STATE_DIR": str(workdir / "state"),
        # This checkout's api/ and engine/, whatever else is installed in the environment.
        "PYTHONPATH": os.pathsep.join(
            [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
        **env_extra,
    }
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    if threads:
        env["GUNICORN_THREADS"] = str(threads)
    with (workdir / "gunicorn.log").open("wb") as log:
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api.app:create_app()"],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    wait_for(http_port, gunicorn)
    return [gunicorn, redis_proc], http_port


def wait_until_serving(port: int, timeout: float = 60) -> None:
    """Until /healthz answers 40 times in a row (every worker has booted and imported)."""
    deadline = time.monotonic() + timeout
    ok = 0
    while ok < 40 and time.monotonic() < deadline:
        try:
            connection = HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            ok = ok + 1 if connection.getresponse().status == 200 else 0
            connection.close()
        except OSError:
            ok = 0
            time.sleep(0.1)


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for proc in processes:
        proc.send_signal(signal.SIGTERM)
    for proc in processes:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


# --- 2. gunicorn + Redis with wrk ----------------------------------------------------------------

_LUA_RANDOM = """
local deck = {%(deck)s}
local size = %(size)d
local path = "%(path)s"
local headers = {["Content-Type"] = "application/json"}
function setup(thread) thread:set("id", math.random(1, 1000000)) end
function init(args) math.randomseed(id + os.time()) end
function request()
  local picked, seen = {}, {}
  while #picked < size do
    local card = deck[math.random(#deck)]
    if not seen[card] then seen[card] = true; picked[#picked + 1] = '"' .. card .. '"' end
  end
  return wrk.format("POST", path, headers, '{"hand":[' .. table.concat(picked, ",") .. ']}')
end
"""
_LUA_FIXED = """
wrk.method = "POST"
wrk.body = '%(body)s'
wrk.headers["Content-Type"] = "application/json"
"""


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing wrk (apt-get install wrk)")
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=False,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
                       stdout=subprocess.DEVNULL)  # fmt: skip
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is required for the gunicorn part (apt-get install wrk)")
    return found


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def run_wrk(
    wrk: str,
    url: str,
    script: Path | None,
    connections: int,
    seconds: int,
    threads: int = 2,
) -> dict[str, float]:
    """Requests/s, p50/p99 ms and non-2xx count of one wrk run (``threads`` client threads)."""
    args = [wrk, "-t", str(min(threads, connections)), "-c", str(connections)]
    args += ["-d", f"{max(1, round(seconds))}s", "--latency", "--timeout", "10s"]
    if script is not None:
        args += ["-s", str(script)]
    text = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))  # type: ignore[union-attr]

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        return float(match.group(1)) * _UNITS[match.group(2)] if match else float("nan")

    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors:.*", text)
    done = re.search(r"(\d+) requests in", text)
    return {
        "requests": float(done.group(1)) if done else 0.0,
        "rps": rps,
        "p50": latency("50"),
        "p99": latency("99"),
        "non2xx": float(bad.group(1)) if bad else 0.0,
        "socket_errors": 0.0 if errors is None else 1.0,
    }


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far, or None once it has exited."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime, stime


class ServiceCpu:
    """CPU seconds used by gunicorn (master and every worker, recycled ones too) and redis.

    A worker's last reading is kept after it exits (gunicorn recycles workers every
    ``max_requests``), so the total never goes down; what a worker used after its last reading
    is lost, which is little next to a slice.
    """

    def __init__(self, processes: list[subprocess.Popen[bytes]]) -> None:
        self.master = processes[0].pid
        self.pids = {p.pid for p in processes}
        self.last: dict[int, float] = {}

    def __call__(self) -> float:
        return sum(self.snapshot().values())

    def snapshot(self) -> dict[int, float]:
        """CPU seconds so far of every process seen (master, workers, redis), by pid."""
        pids = set(self.pids)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                if parent == self.master:
                    pids.add(int(entry.name))
        for pid in pids:
            seconds = _cpu_seconds(pid)
            if seconds is not None:
                self.last[pid] = seconds
        return dict(self.last)

    def workers(self) -> set[int]:
        """The pids seen so far that are gunicorn workers (not the master, not redis)."""
        return set(self.last) - self.pids


SCENARIOS = ("healthz", "cached", "uncached GFF", "uncached TT")


def _spread(values: list[float]) -> str:
    """``median (min-max)`` of per-slice figures."""
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


Runs = dict[str, list[dict[str, float]]]


def _per_slice(runs: Runs, name: str, key: str) -> list[float]:
    """``key`` of each slice of ``name`` over the ``/healthz`` slice of the same round."""
    pairs = zip(runs[name], runs["healthz"], strict=True)
    return [a[key] / b[key] for a, b in pairs if b[key]]


def _cpu_per_slice(runs: Runs, name: str) -> list[float]:
    """CPU per request of each slice of ``name`` over that of the same round's ``/healthz``."""
    pairs = zip(runs[name], runs["healthz"], strict=True)
    return [
        (a["cpu"] / a["requests"]) / (b["cpu"] / b["requests"])
        for a, b in pairs
        if a["requests"] and b["requests"] and b["cpu"]
    ]


def gunicorn_part(
    levels: list[int],
    seconds: int,
    workers: int | None,
    threads: int | None = None,
    slices: int = 8,
    wrk_threads: int = 2,
) -> None:
    """wrk against each scenario, ``slices`` interleaved slices of ``seconds / slices`` each.

    Interleaving spreads a neighbour's burst of load over every scenario instead of one, so the
    ratios of one run compare like with like. Every slice opens new connections, and gunicorn's
    workers share them out unevenly (a worker serves at most one core under the GIL), so one
    slice's throughput depends on how its connections landed: the ratios are also given per
    slice (each scenario's slice against the ``/healthz`` slice of the same round), as the median
    and range, with the cores the service used and the busiest worker's share of its CPU.
    Requests/s is the mean of the slices'; p50 and p99 are the median of the slices'; CPU per
    request is what gunicorn (every worker) and redis used over the slices divided by the
    requests answered (wrk's own CPU is not in it).
    """
    wrk = ensure_wrk()
    with tempfile.TemporaryDirectory(prefix="tunk-bench-") as tmp:
        work = Path(tmp)
        scripts = {
            "cached": _LUA_FIXED % {"body": json.dumps(CACHED_BODY)},
            "uncached GFF": _LUA_RANDOM
            % {"deck": ",".join(f'"{c}"' for c in STD_DECK), "size": 6, "path": GFF},
            "uncached TT": _LUA_RANDOM
            % {"deck": ",".join(f'"{c}"' for c in TT_DECK), "size": 6, "path": TT},
        }
        paths: dict[str, Path | None] = {"healthz": None}
        for name, text in scripts.items():
            paths[name] = work / (name.replace(" ", "_") + ".lua")
            paths[name].write_text(text)  # type: ignore[union-attr]
        processes, port = start_service(work, workers, {}, threads)
        try:
            base = f"http://127.0.0.1:{port}"
            urls = {"healthz": base + "/healthz", "cached": base + GFF}
            urls["uncached GFF"], urls["uncached TT"] = base + GFF, base + TT
            wait_until_serving(port)
            for name in SCENARIOS:  # warm every worker
                run_wrk(wrk, urls[name], paths[name], 32, 3, wrk_threads)
            shown = workers or "gunicorn.conf.py default"
            each = max(1, round(seconds / slices))  # wrk takes whole seconds
            print(
                f"gunicorn + Redis (workers: {shown}; threads: {threads or 'default'}; "
                f"CPUs: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}; "
                f"wrk -t{wrk_threads}, {slices} interleaved slices of {each} s per scenario):"
            )
            print(
                f"  {'scenario':<13} {'conn':>4} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>8} "
                f"{'non-2xx':>7} {'CPU ms/req':>10} {'cores':>5} {'top worker':>10}"
            )
            service_cpu = ServiceCpu(processes)
            for level in levels:
                runs: Runs = {name: [] for name in SCENARIOS}
                cpu = dict.fromkeys(SCENARIOS, 0.0)
                for _ in range(slices):
                    for name in SCENARIOS:
                        before = service_cpu.snapshot()
                        started = time.perf_counter()
                        run = run_wrk(wrk, urls[name], paths[name], level, each, wrk_threads)
                        wall = time.perf_counter() - started
                        after = service_cpu.snapshot()
                        used = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
                        total = sum(used.values())
                        per_worker = [used[pid] for pid in service_cpu.workers() if pid in used]
                        run["cpu"] = total
                        run["cores"] = total / wall if wall > 0 else float("nan")
                        run["top"] = max(per_worker) / total if per_worker and total else 0.0
                        runs[name].append(run)
                        cpu[name] += total
                got: dict[str, dict[str, float]] = {}
                for name in SCENARIOS:
                    done = sum(r["requests"] for r in runs[name])
                    got[name] = {
                        "rps": sum(r["rps"] for r in runs[name]) / slices,
                        "p50": statistics.median(r["p50"] for r in runs[name]),
                        "p99": statistics.median(r["p99"] for r in runs[name]),
                        "non2xx": sum(r["non2xx"] for r in runs[name]),
                        "cpu_ms": cpu[name] / done * 1000 if done else float("nan"),
                        "cores": statistics.median(r["cores"] for r in runs[name]),
                        "top": statistics.median(r["top"] for r in runs[name]),
                    }
                    r = got[name]
                    print(
                        f"  {name:<13} {level:>4} {r['rps']:8.0f} {r['p50']:7.2f} {r['p99']:8.2f} "
                        f"{r['non2xx']:7.0f} {r['cpu_ms']:10.3f} {r['cores']:5.2f} "
                        f"{r['top']:10.0%}"
                    )

                h = got["healthz"]
                c_rps = got["cached"]["rps"] / h["rps"]
                c_p99 = got["cached"]["p99"] / h["p99"]
                print(f"  -> {level} connections: cached throughput {c_rps:.2f}x healthz "
                      f"(target >= 0.85x {verdict(c_rps, 0.85, True)}); cached p99 {c_p99:.2f}x "
                      f"(target <= 1.3x {verdict(c_p99, 1.3)}); "
                      f"CPU per request {got['cached']['cpu_ms'] / h['cpu_ms']:.2f}x")  # fmt: skip
                print(f"     per slice: throughput {_spread(_per_slice(runs, 'cached', 'rps'))}, "
                      f"p99 {_spread(_per_slice(runs, 'cached', 'p99'))}, "
                      f"CPU per request {_spread(_cpu_per_slice(runs, 'cached'))}")  # fmt: skip
                for name in ("uncached GFF", "uncached TT"):
                    ratio = got[name]["rps"] / h["rps"]
                    print(f"     {name} throughput {ratio:.2f}x healthz "
                          f"(target >= 0.4x {verdict(ratio, 0.4, True)}); "
                          f"CPU per request {got[name]['cpu_ms'] / h['cpu_ms']:.2f}x; per slice: "
                          f"throughput {_spread(_per_slice(runs, name, 'rps'))}, "
                          f"CPU {_spread(_cpu_per_slice(runs, name))}")  # fmt: skip
        finally:
            stop(processes)
    print()


# --- 3. probes under five maximal requests -------------------------------------------------------


def probes_part(poll_seconds: float, workers: int | None, threads: int | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="tunk-bench-") as tmp:
        processes, port = start_service(Path(tmp), workers, {}, threads)
        try:
            wait_until_serving(port)
            outcomes: list[int] = []

            def slow(n: int) -> None:
                # a few samples fewer per request and run, so no answer comes from the cache
                samples = MAXIMAL_KNOCK["samples"] - n - int(time.time()) % 97
                body = json.dumps({**MAXIMAL_KNOCK, "samples": samples})
                connection = HTTPConnection("127.0.0.1", port, timeout=120)
                connection.request("POST", TT_KNOCK, body=body,
                                   headers={"Content-Type": "application/json"})  # fmt: skip
                response = connection.getresponse()
                response.read()
                outcomes.append(response.status)

            slow_threads = [threading.Thread(target=slow, args=(n,)) for n in range(5)]
            for thread in slow_threads:
                thread.start()
            latencies: list[float] = []
            failures = 0
            end = time.monotonic() + poll_seconds
            while time.monotonic() < end and any(t.is_alive() for t in slow_threads):
                for path in ("/healthz", "/readyz"):
                    start = time.perf_counter()
                    try:
                        connection = HTTPConnection("127.0.0.1", port, timeout=5)
                        connection.request("GET", path)
                        status = connection.getresponse().status
                        connection.close()
                    except OSError:
                        status = 0
                    latencies.append(time.perf_counter() - start)
                    failures += status != 200
                time.sleep(0.1)
            for thread in slow_threads:
                thread.join()
        finally:
            stop(processes)
    p99 = percentile(latencies, 99) * 1000
    print(f"Probes while five maximal requests run ({len(latencies)} probes, 10/s):")
    print(f"  p50 {percentile(latencies, 50) * 1000:.1f} ms, p99 {p99:.1f} ms "
          f"(target <= 100 ms {verdict(p99, 100)}), max {max(latencies) * 1000:.1f} ms, "
          f"failed {failures}; slow requests answered {sorted(outcomes)}")  # fmt: skip
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("in-process", "gunicorn", "probes", "profile"))
    parser.add_argument("--profile-requests", type=int, default=250)
    parser.add_argument(
        "--profile-backend",
        choices=("memory", "redis"),
        default="memory",
        help="profile: the test client with the in-process cache, or the app alone (WSGI) "
        "with a redis-server and CPU-time profiling",
    )
    parser.add_argument("--rounds", type=int, default=600, help="in-process interleaved rounds")
    parser.add_argument("--connections", default="8,32")
    parser.add_argument("--seconds", type=int, default=16, help="per scenario and level")
    parser.add_argument("--slices", type=int, default=8, help="interleaved wrk runs per scenario")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk -t (client threads)")
    parser.add_argument("--poll-seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=None, help="WEB_CONCURRENCY")
    parser.add_argument("--threads", type=int, default=None, help="GUNICORN_THREADS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="in-process timer: wall time, or this thread's CPU time (steadier on a busy machine)",
    )
    args = parser.parse_args(argv)
    if args.only in (None, "in-process"):
        in_process(args.rounds, args.seed, args.clock)
    if args.only in (None, "gunicorn"):
        levels = [int(c) for c in args.connections.split(",") if c.strip()]
        gunicorn_part(
            levels, args.seconds, args.workers, args.threads, args.slices, args.wrk_threads
        )
    if args.only in (None, "probes"):
        probes_part(args.poll_seconds, args.workers, args.threads)
    if args.only == "profile" and args.profile_backend == "memory":
        profile_part(args.profile_requests, args.seed)
    if args.only == "profile" and args.profile_backend == "redis":
        profile_redis_part(args.profile_requests, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
