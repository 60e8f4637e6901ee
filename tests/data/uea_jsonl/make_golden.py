"""Golden rows of UltraEval-Audio's JsonlFile for hostile.jsonl: what pandas.read_json(lines=True) gives (pandas 1.5.3,
Debian 12's, as UEA's `load` calls it), each value as its Python type's name and repr, for
tests/conformance/uea_jsonl_test.cpp.

    /usr/bin/python3 make_golden.py > golden.jsonl
"""
import json
import os

import pandas as pd

here = os.path.dirname(os.path.abspath(__file__))
df = pd.read_json(os.path.join(here, "hostile.jsonl"), lines=True)
print(json.dumps({"pandas": pd.__version__}))
for row in df.to_dict(orient="records"):
    print(json.dumps({key: [type(value).__name__, repr(value)] for key, value in row.items()}, ensure_ascii=False))
