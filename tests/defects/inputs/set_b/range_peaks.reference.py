import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:1 + n]]
    q = int(data[1 + n])
    table = [h]
    span = 1
    while 2 * span <= n:
        prev = table[-1]
        table.append([max(prev[i], prev[i + span]) for i in range(n - 2 * span + 1)])
        span *= 2
    out = []
    pos = 2 + n
    for _ in range(q):
        l, r = int(data[pos]) - 1, int(data[pos + 1])
        pos += 2
        k = (r - l).bit_length() - 1
        row = table[k]
        out.append(max(row[l], row[r - (1 << k)]))
    sys.stdout.write("\n".join(map(str, out)) + "\n")


main()
