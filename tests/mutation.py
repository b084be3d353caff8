"""Mutation fuzzing of JSON documents (saved games, scenario files): a random place to change."""


def random_place(rng, data, steps: int):
    """Walk up to `steps` levels down from the document's root, choosing keys and indexes at random; return
    (node, parent, key) for the place reached (parent None when the walk did not leave the root)."""
    node, parent, key = data, None, None
    for _ in range(steps):
        if isinstance(node, dict) and node:
            parent, key = node, rng.choice(list(node))
        elif isinstance(node, list) and node:
            parent, key = node, rng.randrange(len(node))
        else:
            break
        node = parent[key]
    return node, parent, key
