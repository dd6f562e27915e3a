import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    s = list(data[1][:n]) if len(data) > 1 else []
    changes = 0
    for i in range(1, len(s)):
        if s[i] == s[i - 1]:
            nxt = s[i + 1] if i + 1 < len(s) else ""
            for colour in "abc":
                if colour != s[i - 1] and colour != nxt:
                    s[i] = colour
                    break
            changes += 1
    print(changes)
    print("".join(s))


main()
