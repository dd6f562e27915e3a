"""Independent checker for lenient_case_camel (snake_case to UpperCamelCase)."""


def _camel(name):
    return "".join(part[:1].upper() + part[1:].lower() for part in name.split("_") if part)


def check(identity, answer):
    return answer.split() == [_camel(n) for n in identity["names"]]


def solve(identity):
    return " ".join(_camel(n) for n in identity["names"])


def probes(identity):
    want = solve(identity)
    lower_first = " ".join(w[:1].lower() + w[1:] for w in want.split())
    return [p for p in (want.lower(), want.upper(), lower_first, " ".join(identity["names"]))
            if p != want]
