from collections import defaultdict
from typing import List

def validate(stdin: str) -> None | str:
    lines = stdin.strip().split('\n')
    if len(lines) != 1:
        return "Incorrect number of lines"

    n = int(lines[0])
    if n < 1 or n > 2 * 10**5:
        return "n must be between 1 and 2*10^5"

    # Check if the input is a permutation of numbers 1 to n
    if not all(1 <= i <= n for i in range(1, n + 1)):
        return "The input must be a permutation of numbers 1 to n"

    # Check if the input forms a tree
    graph = defaultdict(list)
    for i in range(1, n + 1):
        graph[i].append(i)

    def dfs(node, parent):
        if node in visited:
            return True
        visited.add(node)
        for neighbor in graph[node]:
            if neighbor != parent and dfs(neighbor, node):
                return True
        return False

    visited = set()
    for i in range(1, n + 1):
        if not dfs(i, None):
            return "The input does not form a tree"

    return None
