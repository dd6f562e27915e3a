"""Independent checker for degenerate_copy_boxes (bottom to top, never lighter below)."""


def check(identity, answer):
    weight = {b[0]: b[1] for b in identity["boxes"]}
    order = answer.split()
    if sorted(order) != sorted(weight):
        return False
    for k in range(1, len(order)):
        if weight[order[k]] > weight[order[k - 1]]:
            return False
    return True


def solve(identity):
    boxes = sorted(identity["boxes"], key=lambda b: (b[1], b[0]))
    boxes.reverse()
    return " ".join(b[0] for b in boxes)


def probes(identity):
    labels = [b[0] for b in identity["boxes"]]
    return [" ".join(reversed(labels)), " ".join(sorted(labels)), " ".join(labels + labels[:1])]
