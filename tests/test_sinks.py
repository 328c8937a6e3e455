"""The sink catalog: schema, size, uniqueness, lookups, SQL text, open modes, module names."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import jsonschema
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from toolwitness.code.sinks import (
    Sink,
    SinkCatalog,
    build_catalog,
    builtin_catalog_files,
    classify_open_mode,
    classify_shell_option,
    classify_sql,
    load_sink_catalog,
    normalise_module,
    parse_catalog_file,
    refine_leaves,
)
from toolwitness.errors import InputError

LEAVES = {
    "READ_FS", "READ_DB", "WRITE_FS", "WRITE_DB", "EXEC_PROCESS", "EXEC_SHELL", "EXEC_EVAL",
    "NETWORK_OUTBOUND", "ENV",
}  # fmt: skip
R, W = frozenset({"READ_DB"}), frozenset({"WRITE_DB"})
RW = R | W


def _schema() -> dict[str, object]:
    text = resources.files("toolwitness.data").joinpath("sinks.schema.json").read_text("utf-8")
    return json.loads(text)


# --- the shipped files ---------------------------------------------------------------------


def test_every_shipped_file_validates_against_the_schema() -> None:
    files = builtin_catalog_files()
    assert [name for name, _ in files] == [
        "node-core.yaml",
        "npm.yaml",
        "pypi.yaml",
        "python-stdlib.yaml",
    ]
    jsonschema.Draft202012Validator.check_schema(_schema())
    validator = jsonschema.Draft202012Validator(_schema())
    for name, text in files:
        errors = list(validator.iter_errors(yaml.safe_load(text)))
        assert errors == [], f"{name}: {errors[0].message if errors else ''}"


def test_catalog_has_at_least_250_entries_across_both_languages() -> None:
    catalog = load_sink_catalog()
    by_language = Counter(sink.language for sink in catalog.entries())
    assert len(catalog) >= 250
    assert by_language["js"] >= 125 and by_language["py"] >= 125


def test_entries_use_only_lattice_leaves_and_carry_a_note() -> None:
    for sink in load_sink_catalog().entries():
        assert sink.leaves and sink.leaves <= LEAVES, sink
        assert len(sink.note) >= 10 and "(" in sink.note, sink  # names its documentation


def test_no_two_entries_share_a_key_after_normalisation() -> None:
    catalog = load_sink_catalog()
    keys = [catalog._canonical(s.language, s.module, s.name) for s in catalog.entries()]
    assert len(keys) == len(set(keys))


def test_duplicate_key_is_refused() -> None:
    doc = {
        "language": "js",
        "ecosystem": "node-core",
        "aliases": [
            {"module": "fs/promises", "target": "fs", "prefix": "promises", "note": "x" * 10}
        ],
        "sinks": [
            {"module": "fs", "names": ["promises.rm"], "leaves": ["WRITE_FS"], "note": "n" * 10},
            {"module": "fs/promises", "names": ["rm"], "leaves": ["WRITE_FS"], "note": "n" * 10},
        ],
    }
    with pytest.raises(InputError, match="listed twice"):
        build_catalog([doc])


@pytest.mark.parametrize(
    ("patch", "where"),
    [
        ({"leaves": ["WRITE"]}, "leaves"),  # a parent, not a leaf
        ({"leaves": ["DELETE_FS"]}, "leaves"),
        ({"names": ["fs.read file"]}, "names"),
        ({"arg_rule": "regex"}, "arg_rule"),
        ({"extra": True}, "$"),
        ({"note": "short"}, "note"),
    ],
)
def test_schema_refuses_bad_entries(patch: dict[str, object], where: str) -> None:
    entry = {"module": "fs", "names": ["readFile"], "leaves": ["READ_FS"], "note": "a note (doc)"}
    entry.update(patch)
    text = yaml.safe_dump({"language": "js", "ecosystem": "node-core", "sinks": [entry]})
    with pytest.raises(InputError, match="invalid sink catalog") as caught:
        parse_catalog_file(text, "bad.yaml")
    assert "bad.yaml" in caught.value.message


def test_unparseable_yaml_names_the_file() -> None:
    with pytest.raises(InputError, match=r"broken\.yaml: not valid YAML"):
        parse_catalog_file("sinks: [unclosed", "broken.yaml")


# --- lookups -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "module", "name", "leaves"),
    [
        ("js", "fs", "writeFileSync", {"WRITE_FS"}),
        ("js", "node:fs/promises", "readFile", {"READ_FS"}),
        ("js", "fs", "promises.readFile", {"READ_FS"}),
        ("js", "fs", "default.unlinkSync", {"WRITE_FS"}),
        ("js", "child_process", "exec", {"EXEC_SHELL"}),
        ("js", None, "eval", {"EXEC_EVAL"}),
        ("js", None, "fetch", {"NETWORK_OUTBOUND"}),
        ("js", None, "process.env", {"ENV"}),
        ("js", "node:process", "env", {"ENV"}),
        ("js", None, "process.env.API_KEY", {"ENV"}),
        ("js", "axios", "default.post", {"NETWORK_OUTBOUND"}),
        ("js", "axios", "default", {"NETWORK_OUTBOUND"}),
        ("js", "pg", "Client#query", {"READ_DB", "WRITE_DB"}),
        ("js", "mysql2/promise", "Pool#execute", {"READ_DB", "WRITE_DB"}),
        ("js", "@prisma/client", "PrismaClient#user.findMany", {"READ_DB"}),
        ("js", "@prisma/client", "PrismaClient#post.deleteMany", {"WRITE_DB"}),
        ("js", "mongoose", "Model#findOne", {"READ_DB"}),
        ("js", "mongoose", "Model#create", {"WRITE_DB"}),
        ("js", "drizzle-orm/node-postgres", "DrizzleDatabase#insert", {"WRITE_DB"}),
        ("js", "vm", "runInNewContext", {"EXEC_EVAL"}),
        ("js", "playwright-core", "chromium.launch", {"EXEC_PROCESS"}),
        ("py", None, "exec", {"EXEC_EVAL"}),
        ("py", "builtins", "open", {"READ_FS", "WRITE_FS"}),
        ("py", "os", "system", {"EXEC_SHELL"}),
        ("py", "os", "path.exists", {"READ_FS"}),
        ("py", "os.path", "exists", {"READ_FS"}),
        ("py", None, "os.environ.get", {"ENV"}),
        ("py", "pathlib", "Path#write_text", {"WRITE_FS"}),
        ("py", "shutil", "rmtree", {"WRITE_FS"}),
        ("py", "redis.asyncio", "Redis#hgetall", {"READ_DB"}),
        (
            "py",
            "git",
            "Repo#git.frobnicate",
            {"EXEC_PROCESS", "READ_FS", "WRITE_FS", "NETWORK_OUTBOUND"},
        ),
        ("py", "git", "Repo#git.status", {"EXEC_PROCESS", "READ_FS"}),
        ("py", "boto3", "BotoClient#put_object", {"NETWORK_OUTBOUND"}),
        ("py", "httpx", "AsyncClient#get", {"NETWORK_OUTBOUND"}),
    ],
)
def test_lookup_finds_the_documented_leaves(
    language: str, module: str | None, name: str, leaves: set[str]
) -> None:
    sink = load_sink_catalog().lookup(language, module, name)
    assert sink is not None
    assert sink.leaves == frozenset(leaves)


@pytest.mark.parametrize(
    ("language", "module", "name"),
    [
        ("js", "fs", "basename"),
        ("js", "path", "join"),
        ("js", "lodash", "get"),
        ("js", "@prisma/client", "PrismaClient#user.a.findMany"),  # * is one segment only
        ("js", "fs", "readFile.extra"),
        ("py", "os", "path.join"),
        ("py", "json", "loads"),
        ("py", "js", "open"),  # language is part of the key
    ],
)
def test_lookup_misses_what_is_not_a_sink(language: str, module: str | None, name: str) -> None:
    assert load_sink_catalog().lookup(language, module, name) is None


def test_javascript_and_python_are_separate_namespaces() -> None:
    assert load_sink_catalog().lookup("js", None, "open") is None
    assert load_sink_catalog().lookup("py", None, "fetch") is None


def test_factories_name_the_instance_class() -> None:
    catalog = load_sink_catalog()
    assert catalog.instance_type("js", "redis", "createClient") == ("redis", "RedisClient")
    assert catalog.instance_type("js", "better-sqlite3", "default") == (
        "better-sqlite3",
        "Database",
    )
    assert catalog.instance_type("py", "sqlite3", "connect") == ("sqlite3", "Connection")
    assert catalog.instance_type("js", "fs", "readFile") is None


def test_catalog_is_cached() -> None:
    assert load_sink_catalog() is load_sink_catalog()


def test_sink_is_frozen() -> None:
    sink = Sink("js", "fs", "rm", frozenset({"WRITE_FS"}), None, "a note here")
    with pytest.raises(AttributeError):
        sink.name = "other"  # type: ignore[misc]
    assert SinkCatalog([sink]).lookup("js", "node:fs", "rm") == sink


# --- module names --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("node:fs/promises", "fs/promises"),
        ("node:child_process", "child_process"),
        ("fs", "fs"),
        ("lodash/index", "lodash"),
        ("lodash/index.js", "lodash"),
        ("@scope/pkg/index.mjs", "@scope/pkg"),
        ("pkg/", "pkg"),
        ("index", "index"),
        ("  axios ", "axios"),
    ],
)
def test_normalise_module(spec: str, expected: str) -> None:
    assert normalise_module(spec) == expected


# --- SQL text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT * FROM users", R),
        ("select id from t where x = 1", R),
        ("  \n\tSeLeCt 1", R),
        ("SHOW TABLES", R),
        ("EXPLAIN SELECT * FROM t", R),
        ("EXPLAIN DELETE FROM t", R),  # only plans it
        ("EXPLAIN ANALYZE DELETE FROM t", W),  # runs it
        ("EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET a = 1", W),
        ("WITH x AS (SELECT 1) SELECT * FROM x", R),
        ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r", R),
        ("with gone as (delete from t returning *) select * from gone", RW),
        ("WITH s AS (SELECT id FROM a) INSERT INTO b SELECT id FROM s", RW),
        ("INSERT INTO t VALUES (1)", W),
        ("insert into t (a) values ('SELECT')", W),
        ("UPDATE t SET a = 1", W),
        ("DELETE FROM t", W),
        ("REPLACE INTO t VALUES (1)", W),
        ("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", W),
        ("DROP TABLE t", W),
        ("CREATE TABLE t (a int)", W),
        ("ALTER TABLE t ADD COLUMN b int", W),
        ("TRUNCATE t", W),
        ("GRANT ALL ON t TO bob", W),
        ("SELECT 1; DELETE FROM t", RW),
        ("select 1;\ninsert into t values (2);", RW),
        ("/* DELETE FROM t */ SELECT 1", R),
        ("/* outer /* nested DELETE */ still comment */ SELECT 1", R),
        ("-- DROP TABLE t\nSELECT 1", R),
        ("SELECT 1 -- ; DROP TABLE t", R),
        ("SELECT '; DELETE FROM t'", R),
        ("SELECT 'it''s; DROP TABLE t'", R),
        ('SELECT "delete" FROM t', R),
        ("SELECT `drop` FROM t", R),
        ("SELECT [update] FROM t", R),
        ("SELECT $$; DROP TABLE t$$", R),
        ("SELECT $body$; DROP TABLE t$body$", R),
        ("SELECT update_time, deleted FROM t", R),
        ("SELECT * FROM t WHERE id = $1", R),
        ("SELECT * FROM t FOR UPDATE", R),
        ("SELECT a INTO b FROM t", RW),
        ("BEGIN", frozenset()),
        ("", frozenset()),
        ("-- only a comment", frozenset()),
        ("CALL do_things()", RW),
        ("PRAGMA table_info(t)", RW),
        ("PRAGMA journal_mode = WAL", W),
        ("PRAGMA user_version", R),
        ("COPY t FROM STDIN", W),
        ("COPY t TO STDOUT", R),
        ("SELECT 'unterminated", RW),
        ("SELECT 1 /* unterminated", RW),
        (None, RW),
    ],
)
def test_classify_sql(sql: str | None, expected: frozenset[str]) -> None:
    assert classify_sql(sql) == expected


def test_mysql_comment_and_escape_readings_are_both_counted() -> None:
    # In MySQL `#` starts a comment, so the quote is commented out and DELETE runs.
    assert classify_sql("SELECT 1 # '\n; DELETE FROM t; -- '") == RW
    # With backslash escapes the string ends later, and the DELETE between is real SQL in one reading.
    assert classify_sql("SELECT 'a\\'; DELETE FROM t; -- '") == RW
    # `5--1` is arithmetic in MySQL, a comment in standard SQL.
    assert classify_sql("SELECT 5--1; DELETE FROM t") == RW


def test_huge_sql_text_counts_as_both() -> None:
    assert classify_sql("SELECT 1 " + " " * 1_000_001) == RW


@given(st.text(max_size=200))
def test_classify_sql_never_crashes_and_stays_in_the_db_leaves(text: str) -> None:
    assert classify_sql(text) <= RW


# --- open modes, shell options, refinement -------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (None, {"READ_FS"}),
        ("r", {"READ_FS"}),
        ("rb", {"READ_FS"}),
        ("rt", {"READ_FS"}),
        ("w", {"WRITE_FS"}),
        ("wb", {"WRITE_FS"}),
        ("a", {"WRITE_FS"}),
        ("x", {"WRITE_FS"}),
        ("wx", {"WRITE_FS"}),
        ("r+", {"READ_FS", "WRITE_FS"}),
        ("w+b", {"READ_FS", "WRITE_FS"}),
        ("a+", {"READ_FS", "WRITE_FS"}),
        ("rs+", {"READ_FS", "WRITE_FS"}),
        ("", {"READ_FS", "WRITE_FS"}),
        ("q", {"READ_FS", "WRITE_FS"}),
        ("b", {"READ_FS", "WRITE_FS"}),
    ],
)
def test_classify_open_mode(mode: str | None, expected: set[str]) -> None:
    assert classify_open_mode(mode) == frozenset(expected)


def test_classify_shell_option() -> None:
    assert classify_shell_option(None) == {"EXEC_PROCESS"}
    assert classify_shell_option(False) == {"EXEC_PROCESS"}
    assert classify_shell_option(True) == {"EXEC_SHELL"}
    assert classify_shell_option("/bin/bash") == {"EXEC_SHELL"}


def test_refine_leaves_narrows_only_literal_arguments() -> None:
    catalog = load_sink_catalog()
    spawn = catalog.lookup("js", "child_process", "spawn")
    query = catalog.lookup("js", "pg", "Client#query")
    opener = catalog.lookup("py", None, "open")
    assert spawn and query and opener
    assert refine_leaves(spawn.leaves, spawn.arg_rule, None, literal=True) == {"EXEC_PROCESS"}
    assert refine_leaves(spawn.leaves, spawn.arg_rule, True, literal=True) == {"EXEC_SHELL"}
    assert refine_leaves(spawn.leaves, spawn.arg_rule, None, literal=False) == spawn.leaves
    assert refine_leaves(query.leaves, query.arg_rule, "SELECT 1", literal=True) == R
    assert refine_leaves(query.leaves, query.arg_rule, "x", literal=False) == RW
    assert refine_leaves(opener.leaves, opener.arg_rule, "wb", literal=True) == {"WRITE_FS"}
    assert refine_leaves(opener.leaves, opener.arg_rule, None, literal=True) == {"READ_FS"}
