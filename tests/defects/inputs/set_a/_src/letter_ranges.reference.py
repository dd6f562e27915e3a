import sys
from bisect import bisect_left, insort


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    s = data[2].decode()
    by_right = [[] for _ in range(n + 1)]
    pos = 3
    for idx in range(q):
        l, r = int(data[pos]), int(data[pos + 1])
        pos += 2
        by_right[r].append((l, idx))
    answers = [0] * q
    last = {}
    lasts = []  # sorted: the last position of every letter seen so far
    for i in range(1, n + 1):
        c = s[i - 1]
        if c in last:
            del lasts[bisect_left(lasts, last[c])]
        insort(lasts, i)
        last[c] = i
        for l, idx in by_right[i]:
            # a letter occurs in s[l..i] exactly when its last position up to i is >= l
            answers[idx] = len(lasts) - bisect_left(lasts, l)
    sys.stdout.write("\n".join(map(str, answers)) + "\n")


main()
