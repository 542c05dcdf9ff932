r"""``urigrammar rules``: the grammar's rules as written, or one rule and
the rules it uses.

Expectations are derived apart from ``_cmd_explain``: the rules a rule
uses from the words of the grammar file.  The command is run through an
argparse built here from ``_cmd_explain.COMMANDS``, the way ``_cli``
assembles its own.
"""

from __future__ import annotations

import re

import pytest
from abnf.parser import ABNFGrammarRule

from _explain import run
from urigrammar import RULE_NAMES, UnknownRuleError
from urigrammar.shipped import GRAMMAR, grammar_text


def definitions(out: str) -> list[str]:
    """The rule names ``out`` defines, in order (core rules as comments)."""
    names = []
    for line in out.splitlines():
        match = re.match(r"(?:; )?([A-Za-z][A-Za-z0-9-]*)", line)
        if match:
            names.append(match.group(1))
    return names


def uses(name: str) -> set[str]:
    """The rules ``name`` uses, directly or not, read off the words of the
    grammar file."""
    bodies: dict[str, str] = {}
    current = ""
    for line in grammar_text().splitlines():
        if line.startswith(";") or not line.strip():
            continue
        body = line
        if not line[0].isspace():
            head, _, body = line.partition("=")
            current = head.strip().casefold()
        bodies[current] = bodies.get(current, "") + " " + body.partition(";")[0]
    known = {n.casefold(): n for n in GRAMMAR.all_names}
    found: set[str] = set()
    todo = [name.casefold()]
    while todo:
        body = bodies.get(todo.pop(), "")
        body = re.sub(r'"[^"]*"|<[^>]*>|%[bdxBDX][0-9A-Fa-f.-]+', " ", body)
        for word in re.findall(r"[A-Za-z][A-Za-z0-9-]*", body):
            if word.casefold() in known and known[word.casefold()] not in found:
                found.add(known[word.casefold()])
                todo.append(word.casefold())
    return found


def test_rules_lists_every_rule_as_written() -> None:
    status, out, err = run("rules")
    assert (status, err) == (0, "")
    assert definitions(out) == list(RULE_NAMES)
    # RFC 3986 first, under its label: the file's rules, comments and line
    # breaks kept, without the file's header comments and blank lines; a
    # comment per core rule last.
    written = [
        line.rstrip()
        for line in grammar_text().splitlines()
        if line.strip() and not line.startswith(";")
    ]
    lines = out.splitlines()
    assert lines[0] == "; --- RFC 3986 ---"
    assert lines[1 : 1 + len(written)] == written
    core = lines[-len(GRAMMAR.core_names) :]
    assert len(core) == len(GRAMMAR.core_names)
    for name, line in zip(GRAMMAR.core_names, core, strict=True):
        assert line.startswith(f"; {name} ")
        assert "RFC 5234" in line
        assert "abnf" in line


def test_rules_output_is_an_abnf_rule_list() -> None:
    out = run("rules")[1]
    ABNFGrammarRule("rulelist").parse_all(out.replace("\n", "\r\n"))


def test_rules_of_ipv4address() -> None:
    status, out, _ = run("rules", "ipv4address")
    assert status == 0
    assert definitions(out) == ["IPv4address", "dec-octet", "DIGIT"]
    assert out.startswith("IPv4address   = dec-octet ")
    assert '/ "25" %x30-35          ; 250-255\n' in out
    assert run("rules", "IPV4ADDRESS")[1] == out


@pytest.mark.parametrize("name", GRAMMAR.all_names)
def test_rules_of_each_rule(name: str) -> None:
    status, out, _ = run("rules", name.upper())
    assert status == 0
    shown = definitions(out)
    assert shown[0] == name
    assert len(shown) == len(set(shown))
    assert set(shown[1:]) == uses(name) - {name}


def test_unknown_rule_raises() -> None:
    with pytest.raises(UnknownRuleError, match="IPv4address"):
        run("rules", "ipv4adress")


# --- rules: every shipped grammar ---------------------------------------------


def groups(out: str) -> dict[str, list[str]]:
    """The rule names ``out`` defines under each ``; --- label ---`` line."""
    found: dict[str, list[str]] = {}
    label = ""
    for line in out.splitlines():
        head = re.fullmatch(r"; --- (.+) ---", line)
        if head:
            label = head.group(1)
            found[label] = []
        elif re.match(r"[A-Za-z]", line):
            found[label].append(line.partition(" ")[0])
    return found


def test_rules_lists_every_shipped_grammar_labelled() -> None:
    from urigrammar import RFC3986, RFC3987, RFC6570, RFC6570_PUBLISHED, grammar_of

    status, out, err = run("rules")
    assert (status, err) == (0, "")
    found = groups(out)
    assert list(found) == ["RFC 3986", "RFC 3987", "RFC 6570", "RFC 6570 (as published)"]
    assert found["RFC 3986"] == list(RFC3986.rule_names)
    # RFC 3987's own rules; those it restates are RFC 3986's, listed once.
    restated = {name.casefold() for name in RFC3986.rule_names}
    assert found["RFC 3987"] == [n for n in RFC3987.rule_names if n.casefold() not in restated]
    assert {"IRI", "ihost", "ucschar", "iprivate"} <= set(found["RFC 3987"])
    # RFC 6570 with its erratum: literals as corrected, the rest as published.
    assert found["RFC 6570"] == ["literals"]
    assert "%x26-3B" in out
    assert "%x28-3B" not in out
    published = [n for n in RFC6570_PUBLISHED.rule_names if grammar_of(n) is RFC6570]
    assert found["RFC 6570 (as published)"] == [n for n in published if n != "literals"]
    assert "URI-Template" in found["RFC 6570 (as published)"]
    # Every shipped name once, each as its own grammar writes it.
    named = [name for names in found.values() for name in names]
    assert sorted(named) == sorted(set(named))
    for name in named:
        assert (grammar_of(name).source(name) or "").replace("\r\n", "\n") in out


def test_rules_of_a_rule_label_the_grammars_it_draws_on() -> None:
    status, out, _ = run("rules", "uri-template")
    assert status == 0
    found = groups(out)
    assert found["RFC 6570 (as published)"][0] == "URI-Template"
    assert found["RFC 6570"] == ["literals"]
    assert found["RFC 3986"] == ["pct-encoded"]
    assert set(found["RFC 3987"]) == {"ucschar", "iprivate"}
    # A rule of one grammar alone is listed as before, unlabelled.
    assert "; ---" not in run("rules", "ihost")[1]
