"""The sandbox kit: the one standard-library-only package shipped into every sandbox job.

It holds everything the *untrusted* side of a job needs, once:

* :func:`find_bootcamp_class` -- the one way to find a module's bootcamp class;
* :func:`derive_seed` -- the one per-case seed derivation (export, filter, review, gate);
* :func:`json_problem` / :func:`canonical` / :func:`loads` -- what a case must be (plain
  JSON), its text, and the parser (the C scanner and encoder of ``_json``, never the ``json``
  module's Python functions, which a bootcamp could patch);
* the *method server* (:func:`serve`): it imports one bootcamp module and answers questions
  about it -- construct an instance, generate a case, render a prompt or stdin, give a
  reference answer, score a response -- with plain JSON values, one reply line per request
  line. It decides nothing: every judgement (comparisons, thresholds, determinism, diversity,
  mutation outcomes, timing, the verdict) is made by trusted code on the host from these values
  (``synth/gate``). Whatever the untrusted code prints, writes or returns is, at most, a
  different answer to a question: never a verdict.

The host imports this package too (``synth.sandbox.kit``) for the same seed derivation and the
same protocol constants. Its modules, by role, lowest first (each imports only the ones above
it; none imports anything outside the standard library):

* :mod:`.wire` -- plain JSON, the canonical encoding, seeds, the protocol's constants;
* :mod:`.guard` -- the audit hook that refuses what a bootcamp never needs, and the critical
  sections in which the server reads its own frames;
* :mod:`.calls` -- bounded calls into the bootcamp and the errors they come back as;
* :mod:`.snapshot` -- the contract's and the class's tamper snapshots and their checks;
* :mod:`.questions` -- the single-turn questions (and a checker's, a validator's);
* :mod:`.episodes` -- the multi-turn questions (reset, step, the reference policy);
* :mod:`.server` -- the handshake, the request loop, dispatch and the reply channel;
* :mod:`.setup` -- :func:`serve`: everything done before the candidate is imported;
* :mod:`.cli` -- the job's command line and the launcher that runs it.
* :mod:`.forkrun` -- ``run-many``: a program run once per input, forked from a warm interpreter.

**How a job gets and runs the kit.** The host ships every ``.py`` file of this folder, as it
is, under the job's folder :data:`KIT_PACKAGE` (``_synth_kit_pkg/``), and a launcher of a few
lines, :data:`LAUNCHER`, as the job's ``argv[0]``, :data:`KIT_NAME` (``_synth_kit.py``):
``python -s -S -B _synth_kit.py serve MODULE CLASS MODE ...`` or ``... run-many PROGRAM``. The
file set is computed from the folder (``synth.sandbox.methods.kit_files``): a new module here is
shipped, and covered by the steps below, without a list to keep. Why a launcher and a package
rather than one file: the kit keeps its relative imports and runs as the same package on the
host and in the job, and the launcher keeps ``argv[0]`` a script in the job's folder (which is
``sys.path[0]``, so the package, the contract and the candidate import from there).

Per call, an interval timer (SIGALRM, handled by the C-level ``signal.default_int_handler``)
interrupts a bootcamp call that runs past the request's ``limit`` seconds, so that the reply
can show *where* it hung (``CallTimeout``). It is a courtesy: the host enforces its own deadline
and kills the whole job when it passes.

**What the bootcamp cannot reach.** The candidate runs in this interpreter, so the server
keeps nothing it could reach or change. Each module takes the C functions it calls when it is
imported, before any bootcamp code runs: a bootcamp that patches ``os.write``,
``json._default_decoder`` or ``builtins.float`` in the modules it shares with the kit does not
change what the kit uses. Before the import, everything the server needs -- its functions,
its state, the reply writer, the parser, score validation, the guard's state, the contract
snapshots, a private copy of ``builtins`` and the C functions it calls -- is moved into ONE
private namespace (:func:`.setup._private_namespace`): copies of the functions of every module
of the kit, whose globals are a dict no module, class or object refers to. Every module of the
kit (each file of this folder: :func:`.setup._kit_modules`) and ``__main__`` (the launcher) is
then emptied and replaced in ``sys.modules`` by an inert module, and ``signal`` and ``gc`` are
out of ``sys.modules`` (a Python signal handler is handed the running frame; ``gc.set_debug``
would keep the server's garbage). The server defines no class with methods
(``object.__subclasses__()`` leads nowhere) and calls no Python function of a module the
bootcamp shares. The guard (an audit hook, which cannot be listed or removed) refuses frames
and code objects -- the one way left into the private namespace -- and code evaluated on the
bootcamp's behalf at run time; it tells the server's own frames by their code objects (those
of the private namespace, whatever file they come from) and the kit's files by their paths (the
launcher and every file of the kit's folder). While the server reads its own audited
attributes (its critical sections) the garbage collector is off, so that no finalizer of the
bootcamp runs with the guard looking away. Scores are computed by the contract's
``verify_score`` code bound to a copy of the contract's globals (and of ``builtins``) taken
before the import; at every scoring call the server also checks that the contract (the
modules ``synth.bootcamp`` and the runner it imports, every class they define) is the one seen
before the import and the class the one seen at load (:mod:`.snapshot`), and reports any change
in the reply (``tampered``), which the host turns into a finding.
"""

from __future__ import annotations

from .cli import LAUNCHER
from .forkrun import run_many
from .guard import CANARY, SandboxViolation
from .setup import serve
from .snapshot import contract_modules
from .wire import (
    AUTH_OPEN,
    CLOCK_SHIFT_S,
    KIT_NAME,
    KIT_PACKAGE,
    PROTOCOL,
    REPLY_OPEN,
    canonical,
    derive_seed,
    find_bootcamp_class,
    json_problem,
    loads,
)

__all__ = [
    "AUTH_OPEN",
    "CANARY",
    "CLOCK_SHIFT_S",
    "KIT_NAME",
    "KIT_PACKAGE",
    "LAUNCHER",
    "PROTOCOL",
    "REPLY_OPEN",
    "SandboxViolation",
    "canonical",
    "contract_modules",
    "derive_seed",
    "find_bootcamp_class",
    "json_problem",
    "loads",
    "run_many",
    "serve",
]
