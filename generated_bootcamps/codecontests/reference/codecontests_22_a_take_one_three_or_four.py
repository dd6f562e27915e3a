n = int(input())
print("Bob" if n % 7 in (0, 2) else "Alice")
