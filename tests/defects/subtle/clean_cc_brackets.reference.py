import sys

s = sys.stdin.readline().strip()
balance = 0
lowest = 0
for ch in s:
    balance += 1 if ch == "(" else -1
    lowest = min(lowest, balance)
print(-lowest + balance - lowest)
