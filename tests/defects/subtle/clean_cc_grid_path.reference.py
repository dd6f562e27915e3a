import sys

data = list(map(int, sys.stdin.read().split()))
h, w = data[0], data[1]
cells = data[2:]
row = [0] * w
for r in range(h):
    for c in range(w):
        toll = cells[r * w + c]
        if r == 0 and c == 0:
            row[c] = toll
        elif r == 0:
            row[c] = row[c - 1] + toll
        elif c == 0:
            row[c] = row[c] + toll
        else:
            row[c] = min(row[c], row[c - 1]) + toll
print(row[-1])
