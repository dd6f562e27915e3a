import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    x = [int(v) for v in data[2:2 + n]]
    gaps = [x[i + 1] - x[i] for i in range(len(x) - 1)]
    table = [gaps]
    width = 1
    while 2 * width <= len(gaps):
        prev = table[-1]
        table.append([max(prev[i], prev[i + width]) for i in range(len(prev) - width)])
        width *= 2
    out = []
    pos = 2 + n
    for _ in range(q):
        lo, hi = int(data[pos]), int(data[pos + 1])
        pos += 2
        if hi <= lo:
            out.append(0)
            continue
        length = hi - lo
        k = length.bit_length() - 1
        row = table[k]
        out.append(max(row[lo - 1], row[hi - 1 - (1 << k)]))
    print("\n".join(map(str, out)))


main()
