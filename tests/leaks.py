"""What a view, event or reply shows of cards it must hide: the names in its text and the entries that pair a
hidden id with a name (shared by the views' and the zones' leak tests)."""
import json


def leaks(obj, names, ids):
    text = json.dumps(obj)
    found = [n for n in names if json.dumps(n) in text]

    def walk(o):
        if isinstance(o, dict):
            if o.get("id") in ids and "name" in o:
                found.append(o["name"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(obj)
    return found
