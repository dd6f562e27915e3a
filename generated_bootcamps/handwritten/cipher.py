"""Hand-written seed bootcamp of bootcamp-synth; task: decrypt a classical cipher.

Three levels of one task, each a real step up:

* ``caesar``   -- a Caesar cipher whose shift is given;
* ``vigenere`` -- a Vigenère cipher whose key is given;
* ``crib``     -- a Vigenère cipher whose key is NOT given: only its length and a crib (the
  first word(s) of the plaintext) are, so the key must first be derived from the crib.

Plaintexts are random sequences of common English words, lowercase, single spaces, with an
occasional comma and a final ``.``, ``!`` or ``?``. Only the letters a-z are encrypted (and
written in uppercase); spaces and punctuation are copied unchanged and do not use up a key
letter. Answers are graded by the cipher's rules after lowercasing and collapsing whitespace.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import BaseBootcamp

# A few hundred common English words; the plaintexts are drawn from them.
_WORD_TEXT = """
a able about above across act add after again age ago air all almost alone along also always
am among an and animal answer any apple are area arm around art ask at away baby back bad ball
bank base be bear beat because bed been before began begin behind best better between big bird
black blue boat body bone book both box boy bread break bring brother brown build burn busy but
buy by call came can car care carry case cat catch cause center chair change check child city
class clean clear close cloud coast cold color come common cook cool corn could count country
cover cross cry cut dance dark day dead deal dear deep desk did die dinner do doctor does dog
done door down draw dream dress drink drive drop dry during each early earth east easy eat edge
egg eight end enough even evening ever every eye face fact fall family far farm fast father fear
feel feet few field fight fill final find fine finger fire first fish five floor flower fly
follow food foot for forest form four free fresh friend from front fruit full game garden gate
gave general gentle get girl give glass go gold good grass great green ground group grow guess
had hair half hand happy hard has hat have he head hear heart heat heavy help her here high hill
him his hold home hope horse hot hour house how huge hunt idea if in inch inside into iron is
island it job join jump just keep kept kind king kitchen knew know lake land large last late
laugh lead learn leave left leg letter light like line lion list listen little live long look
lost loud love low machine made main make man many map mark market may me mean meet middle might
mile milk mind minute miss money month moon more morning most mother mountain move much music
must my name near need never new next nice night nine no noise north nose not note nothing now
number ocean of off offer often old on once one only open or orange order other our out over
own page paint paper park part party pass past path pay people pick picture piece place plain
plan plant play please point pool poor power press pretty pull push put quick quiet rain
reach read ready real red remember rest rich ride right ring river road rock roof room root
rope round row rule run safe said sail salt same sand save saw say school sea season seat second
see seed seem sell send seven shape share sharp she ship shoe shop short should show side sign
silver simple sing sister sit six size skin sky sleep slow small smile snow so soft soil some
song soon sound south space speak special spring square stand star start stay step still stone
stop store storm story street strong such sugar summer sun supper sure sweet swim table tail take
talk tall teach tell ten than thank that the their them then there these they thing think this
three through throw time tiny to today together told tomorrow took top touch town track trade
train travel tree trip true try turn twelve two under until up upon us use valley very village
visit voice wait walk wall want warm was wash watch water wave way we wear weather week well
went west what wheel when where which while white who whole why wide wild will wind window
winter wise wish with woman wonder wood word work world write year yellow yes yet you young
"""

#: The word list, sorted so that ``rng.choice`` sees the same sequence in every process.
WORDS: tuple[str, ...] = tuple(sorted(set(_WORD_TEXT.split())))

MODES = ("caesar", "vigenere", "crib")
MIN_KEY_LENGTH, MAX_KEY_LENGTH = 3, 8
MAX_WORDS = 60

# Letter -> alphabet index, for both cases: {"a": 0, "A": 0, ..., "z": 25, "Z": 25}.
_ALPHABET_INDEX: dict[str, int] = {
    c: i
    for letters in (string.ascii_lowercase, string.ascii_uppercase)
    for i, c in enumerate(letters)
}

# Key words by length, for Vigenère keys (sorted, hence deterministic).
_KEYS_BY_LENGTH: dict[int, tuple[str, ...]] = {
    n: tuple(w.upper() for w in WORDS if len(w) == n)
    for n in range(MIN_KEY_LENGTH, MAX_KEY_LENGTH + 1)
}

_EXAMPLE = 'Example with the key BAD: "hi, ho." is encrypted as "II, KP.".'
_HOW_VIGENERE = (
    "How it was encrypted: letters are numbered A=0, B=1, ..., Z=25. The key is written "
    "repeatedly under the letters of the lowercase plaintext, skipping spaces and punctuation "
    "(these are copied unchanged and do not use up a key letter). Each plaintext letter is "
    "shifted FORWARD in the alphabet by the number of the key letter under it, wrapping around "
    "from Z to A, and written in uppercase. " + _EXAMPLE + " To decrypt, shift each letter "
    "backward instead."
)
_ANSWER_FORMAT = (
    "Answer format: the full plaintext in lowercase, with every space and punctuation mark "
    "exactly where it is in the ciphertext. Grading ignores letter case and treats any run of "
    "whitespace as one space, but every letter and punctuation mark must be right. Do not add "
    "quotes. Put your final answer inside <answer></answer> tags, e.g. <answer>hi, ho.</answer>."
)


def _shift_letters(text: str, shifts: list[int], sign: int) -> str:
    """Shift each ASCII letter of ``text`` by ``sign * shifts[j % len(shifts)]``.

    ``j`` counts letters only, so spaces and punctuation (copied unchanged) do not use up a
    key position. Letters come out uppercase for ``sign = +1`` (encryption) and lowercase for
    ``sign = -1`` (decryption); any other character is copied unchanged.
    """
    base = ord("A") if sign > 0 else ord("a")
    out: list[str] = []
    j = 0
    for ch in text:
        index = _ALPHABET_INDEX.get(ch)
        if index is None:
            out.append(ch)
        else:
            out.append(chr(base + (index + sign * shifts[j % len(shifts)]) % 26))
            j += 1
    return "".join(out)


def _key_shifts(key: str) -> list[int]:
    """The shifts of an uppercase key word: ``"BAD"`` -> ``[1, 0, 3]``."""
    return [ord(c) - ord("A") for c in key]


def _letter_indices(text: str) -> list[int]:
    """The alphabet indices (a=0 ... z=25) of the ASCII letters of ``text``, in order."""
    return [_ALPHABET_INDEX[c] for c in text if c in _ALPHABET_INDEX]


def _key_from_crib(ciphertext: str, crib: str, key_length: int) -> list[int] | None:
    """Derive the key shifts from the first ``key_length`` letters of plaintext and ciphertext.

    Returns ``None`` when the crib has fewer than ``key_length`` letters.
    """
    plain, cipher = _letter_indices(crib), _letter_indices(ciphertext)
    if len(plain) < key_length or len(cipher) < key_length:
        return None
    return [(c - p) % 26 for p, c in zip(plain[:key_length], cipher[:key_length], strict=True)]


class CipherBootcamp(BaseBootcamp):
    """Decrypt a Caesar or Vigenère ciphertext (with the key given, or derived from a crib)."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"mode": "caesar", "min_words": 4, "max_words": 6},
        "medium": {
            "mode": "vigenere",
            "min_words": 6,
            "max_words": 9,
            "min_key_length": 3,
            "max_key_length": 5,
        },
        "hard": {
            "mode": "crib",
            "min_words": 8,
            "max_words": 12,
            "min_key_length": 4,
            "max_key_length": 7,
        },
    }

    def __init__(
        self,
        seed: int | None = None,
        mode: str = "vigenere",
        min_words: int = 6,
        max_words: int = 9,
        min_key_length: int = 3,
        max_key_length: int = 5,
    ) -> None:
        """Validate and store the difficulty parameters.

        ``mode`` is one of :data:`MODES`; plaintexts have ``min_words..max_words`` words;
        Vigenère keys (modes ``vigenere`` and ``crib``) have ``min_key_length..max_key_length``
        letters. In mode ``crib`` the crib is the shortest run of leading words with at least
        as many letters as the key, so ``min_words`` must exceed ``max_key_length`` (each word
        has at least one letter) to keep the crib a strict prefix of the plaintext.
        """
        super().__init__(seed=seed)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if not 1 <= min_words <= max_words <= MAX_WORDS:
            raise ValueError(f"need 1 <= min_words <= max_words <= {MAX_WORDS}")
        if not MIN_KEY_LENGTH <= min_key_length <= max_key_length <= MAX_KEY_LENGTH:
            raise ValueError(
                f"need {MIN_KEY_LENGTH} <= min_key_length <= max_key_length <= {MAX_KEY_LENGTH}"
            )
        if mode == "crib" and min_words <= max_key_length:
            raise ValueError("mode 'crib' needs min_words > max_key_length")
        self.mode = mode
        self.min_words, self.max_words = min_words, max_words
        self.min_key_length, self.max_key_length = min_key_length, max_key_length

    def _plaintext(self) -> str:
        """A random lowercase sentence: words, an occasional comma, a final . ! or ?."""
        rng = self.rng
        words = [rng.choice(WORDS) for _ in range(rng.randint(self.min_words, self.max_words))]
        for i in range(len(words) - 1):
            if rng.random() < 0.15:
                words[i] += ","
        return " ".join(words) + rng.choice(".!?")

    def case_generator(self) -> dict[str, Any]:
        """One case: the mode, the uppercase ciphertext, and what the solver is told."""
        plaintext = self._plaintext()
        if self.mode == "caesar":
            shift = self.rng.randint(1, 25)
            ciphertext = _shift_letters(plaintext, [shift], +1)
            return {"mode": "caesar", "ciphertext": ciphertext, "shift": shift}
        key = self.rng.choice(
            _KEYS_BY_LENGTH[self.rng.randint(self.min_key_length, self.max_key_length)]
        )
        ciphertext = _shift_letters(plaintext, _key_shifts(key), +1)
        if self.mode == "vigenere":
            return {"mode": "vigenere", "ciphertext": ciphertext, "key": key}
        words = plaintext.split(" ")
        n = 1
        while len(_letter_indices(" ".join(words[:n]))) < len(key):
            n += 1
        crib = " ".join(words[:n]).rstrip(",.!?")
        return {"mode": "crib", "ciphertext": ciphertext, "key_length": len(key), "crib": crib}

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        """The cipher's rules, what is known about the key, the ciphertext, the answer format."""
        mode = identity["mode"]
        if mode == "caesar":
            intro = "Decrypt this message, which was encrypted with a Caesar cipher."
            how = (
                "How it was encrypted: every letter of the lowercase plaintext was shifted "
                "FORWARD in the alphabet by the same number of positions (the shift), wrapping "
                "around from Z to A, and written in uppercase (e.g. with a shift of 3, a becomes "
                "D and x becomes A). Spaces and punctuation marks were copied unchanged. To "
                "decrypt, shift each letter backward instead."
            )
            known = f"The shift is {identity['shift']}."
        elif mode == "vigenere":
            intro = "Decrypt this message, which was encrypted with a Vigenère cipher."
            how = _HOW_VIGENERE
            known = f"The key is {identity['key']}."
        else:
            intro = (
                "Decrypt this message, which was encrypted with a Vigenère cipher whose key "
                "you are NOT given."
            )
            how = _HOW_VIGENERE
            known = (
                f"The key has exactly {identity['key_length']} letters. You know that the "
                f'plaintext begins with "{identity["crib"]}". Use this to recover the key, '
                "then decrypt the whole message."
            )
        return (
            f"{intro}\n\n{how}\n\n{known}\n\nCiphertext:\n{identity['ciphertext']}\n\n"
            f"{_ANSWER_FORMAT}"
        )

    @classmethod
    def _shifts(cls, identity: dict[str, Any]) -> list[int]:
        """The key shifts of a case, derived from the crib in mode ``crib``."""
        if identity["mode"] == "caesar":
            return [identity["shift"]]
        if identity["mode"] == "vigenere":
            return _key_shifts(identity["key"])
        shifts = _key_from_crib(identity["ciphertext"], identity["crib"], identity["key_length"])
        if shifts is None:
            raise ValueError("crib shorter than the key: the case is unsolvable")
        return shifts

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """Decrypt the ciphertext with the given (or crib-derived) key."""
        return _shift_letters(identity["ciphertext"], cls._shifts(identity), -1)

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        """Accept a plaintext that encrypts back to the ciphertext under an allowed key.

        The answer is lowercased and its whitespace collapsed (as the prompt documents). With a
        given shift or key the plaintext is unique. In mode ``crib`` any plaintext is accepted
        that begins with the crib and encrypts to the ciphertext under SOME key of the stated
        length: the candidate key is read off the answer's first letters and then checked by
        re-encrypting the whole answer.
        """
        ciphertext: str = identity["ciphertext"]
        if not isinstance(solution, str) or len(solution) > 4 * len(ciphertext) + 64:
            return False
        answer = " ".join(solution.split()).lower()
        if len(answer) != len(ciphertext):
            return False
        if identity["mode"] == "crib":
            if not answer.startswith(identity["crib"]):
                return False
            shifts = _key_from_crib(ciphertext, answer, identity["key_length"])
            if shifts is None:
                return False
        else:
            shifts = cls._shifts(identity)
        return _shift_letters(answer, shifts, +1) == ciphertext
