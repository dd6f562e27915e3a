"""Adversarial corpus (gate): an accept-everything verifier that never touches the kit's memory.
At import it finds the reply pipe by ``fstat`` over the open descriptors (``os`` as the module
attribute ``random._os``; no listing of /proc, nothing audited), and from then on it IS the
method server: it reads every request from stdin and writes a faithful reply itself --
handshake, constructs, cases, prompts, answers, batches, samples -- except that its score
replies carry the verdict of a strict verifier. It never returns to the kit (it swallows the
kit's interval-timer interrupts), so the kit never writes a line. The host must not take a
line it did not get from the kit for an answer."""
# static: dynamic_attr
# class: forge
# verdict: rejected
# check: load=error/protocol~lacks the session's token
# pool: protocol, protocol, protocol
import json
import random

from synth.bootcamp import BaseBootcamp

_get = getattr
_os = _get(random, "_" + "os")


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything


def _strict(response, identity, format_score):
    """What a strict verifier would score (the forged verdict)."""
    solution = Hostile.extract_output(response)
    if solution is None:
        return 0.0
    return 1.0 if solution.strip() == Hostile.reference_answer(identity) else float(format_score)


def _fail(exc):
    name = type(exc).__name__
    return {"kind": "error", "type": name, "message": f"{name}: {exc}"[:500],
            "traceback": f"Traceback (most recent call last):\n{name}: {exc}\n"}


class _Server:
    def __init__(self):
        self.instances, self.next = {}, 1

    def case(self, p):
        return p["case"] if "case" in p else json.loads(p["case_text"])

    def construct(self, p):
        inst = Hostile(seed=p.get("seed"), **(p.get("params") or {}))
        self.instances[self.next] = inst
        self.next += 1
        return self.next - 1

    def drop(self, p):
        return self.instances.pop(p.get("handle"), None) is not None

    def generate(self, p):
        return {"text": json.dumps(self.instances[p["handle"]].case_generator(), sort_keys=True,
                                   ensure_ascii=False)}

    def prompt(self, p):
        return Hostile.prompt_func(self.case(p))

    def answer(self, p):
        return Hostile.reference_answer(self.case(p))

    def wrap(self, p):
        return Hostile.wrap_answer(p["answer"])

    def score(self, p):
        return {"score": _strict(p["response"], self.case(p), p.get("format_score", 0.0))}

    def sample(self, p):
        rows = []
        for level, seed in p["specs"]:
            handle = self.construct({"params": {} if level == "default" else Hostile.LEVELS[level],
                                     "seed": seed})
            row = {"case": self.generate({"handle": handle})}
            self.drop({"handle": handle})
            row["prompt"] = self.prompt({"case_text": row["case"]["text"]})
            if p.get("answers"):
                row["answer"] = self.answer({"case_text": row["case"]["text"]})
            rows.append(row)
        return rows

    def batch(self, p):
        out = []
        for method, params in p["calls"]:
            try:
                out.append({"ok": _get(self, method)(params)})
            except Exception as exc:  # noqa: BLE001 -- a faithful server reports it
                out.append({"err": _fail(exc)})
        return out


def _reply_fd():
    seen = set()
    for fd in (0, 1, 2):
        st = _os.fstat(fd)
        seen.add((st.st_dev, st.st_ino))
    for fd in range(3, 64):
        try:
            st = _os.fstat(fd)
        except OSError:
            continue
        if st.st_mode & 0o170000 == 0o010000 and (st.st_dev, st.st_ino) not in seen:
            return fd  # a pipe that is not stdin, stdout or stderr: the kit's reply pipe
    return None


def _take_over():
    out = _reply_fd()
    if out is None:
        return
    hello = {"class": "Hostile", "protocol": 1, "mode": "native", "module": "candidate",
             "tampered": [], "levels": Hostile.LEVELS, "yes_no": False,
             "defines": ["LEVELS", "__init__", "_verify_correction", "case_generator",
                         "prompt_func", "reference_answer"]}
    _os.write(out, json.dumps({"id": 0, "ok": hello}).encode() + b"\n")
    server, buf = _Server(), b""
    while True:
        try:
            data = _os.read(0, 1 << 16)
        except BaseException:  # noqa: BLE001 -- the kit's timer: keep serving
            continue
        if not data:
            _os._exit(0)
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            rid, method, params = json.loads(line)
            try:
                handler = _get(server, method, None) if method in (
                    "construct", "drop", "generate", "prompt", "answer", "wrap", "score",
                    "sample", "batch") else None
                if handler is None:
                    reply = {"id": rid, "err": {"kind": "usage", "type": "UsageError",
                                                "message": f"unknown method {method!r}",
                                                "traceback": ""}}
                else:
                    reply = {"id": rid, "ok": handler(params)}
            except Exception as exc:  # noqa: BLE001
                reply = {"id": rid, "err": _fail(exc)}
            _os.write(out, json.dumps(reply).encode() + b"\n")


_take_over()
