"""``api.cache.redis_conn.DirectCommands`` against a real ``redis-server``: the GET/SET path of a
standalone Redis that skips redis-py's command layers must keep every guarantee of the client.

Each test owns a throw-away server (``redis_server``) and kills, pauses or fills it.
"""

from __future__ import annotations

import threading

import pytest
import redis
from conftest import RedisServer

from api.cache.redis_conn import DirectCommands, connect


def direct(server: RedisServer, socket_timeout: float = 0.2) -> tuple[DirectCommands, redis.Redis]:
    client, mode = connect(server.url, socket_timeout=socket_timeout, connect_timeout=0.5)
    assert mode == "standalone"
    return DirectCommands(client.connection_pool), client


def test_replies_are_the_clients_replies(redis_server: RedisServer) -> None:
    commands, client = direct(redis_server)
    assert commands.execute("SET", "k", "h\u00e9llo", "EX", 60) == b"OK"
    assert commands.execute("GET", "k") == "h\u00e9llo".encode()
    assert commands.execute("GET", "absent") is None
    assert 0 < client.ttl("k") <= 60
    commands.close()


def test_error_replies_raise_and_never_use_up_the_pool(redis_server: RedisServer) -> None:
    commands, client = direct(redis_server)
    admin = redis_server.client()
    admin.config_set("maxmemory-policy", "noeviction")
    admin.config_set("maxmemory", 1)  # every write refused
    for i in range(150):  # more than the pool's 100 connections
        with pytest.raises(redis.ResponseError, match="maxmemory"):
            commands.execute("SET", f"k{i}", "v", "EX", 60)
        assert commands.execute("GET", "absent") is None  # reads still answered
    admin.config_set("maxmemory", 0)
    assert commands.execute("SET", "k", "v", "EX", 60) == b"OK"
    assert client.connection_pool._created_connections <= 2  # one reused, reconnected
    admin.close()
    commands.close()


def test_a_restarted_redis_costs_no_failed_command(redis_server: RedisServer) -> None:
    commands, _ = direct(redis_server)
    assert commands.execute("SET", "k", "v", "EX", 60) == b"OK"
    redis_server.restart()  # the idle connection now points at a closed socket
    assert commands.execute("GET", "k") is None  # empty after the restart, and no error
    assert commands.execute("SET", "k", "w", "EX", 60) == b"OK"
    commands.close()


def test_a_timed_out_reply_is_never_read_as_the_next_answer(redis_server: RedisServer) -> None:
    commands, _ = direct(redis_server, socket_timeout=0.1)
    commands.execute("SET", "first", "1", "EX", 60)
    redis_server.pause()
    try:
        with pytest.raises(redis.TimeoutError):
            commands.execute("GET", "first")  # its reply arrives after the timeout
    finally:
        redis_server.resume()
    commands.execute("SET", "second", "2", "EX", 60)
    assert commands.execute("GET", "second") == b"2"
    assert commands.execute("GET", "first") == b"1"
    commands.close()


def test_threads_never_read_each_others_replies(redis_server: RedisServer) -> None:
    commands, client = direct(redis_server, socket_timeout=2)
    wrong: list[tuple[str, object]] = []

    def work(t: int) -> None:
        for i in range(300):
            key = f"t{t}:{i}"
            commands.execute("SET", key, key, "EX", 60)
            got = commands.execute("GET", key)
            if got != key.encode():
                wrong.append((key, got))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert client.connection_pool._created_connections <= 8  # one per thread at most
    commands.close()
