#!/usr/bin/env python3
"""Writes samples.jsonl (references, a group and a human rating) and answers.jsonl (predictions with
edits) for the aggregation golden test: a fixed generator, so the files are the same on every run."""
import json

WORDS = ("the a cat dog sat on mat quick brown fox jumps over lazy river runs fast slow green house tree bird "
         "sings loud soft morning night rain falls stone bridge light dark sea wave wind blows").split()
state = 12345


def draw(n):
    global state
    state = (state * 1103515245 + 12345) % 2**31
    return state % n


with open("samples.jsonl", "w") as samples, open("answers.jsonl", "w") as answers:
    for i in range(200):
        reference = [WORDS[draw(len(WORDS))] for _ in range(4 + draw(9))]
        hypothesis = []
        for word in reference:
            edit = draw(10)
            if edit == 1:
                hypothesis.append(WORDS[draw(len(WORDS))])  # substitution
            elif edit == 2:
                hypothesis += [word, WORDS[draw(len(WORDS))]]  # insertion
            elif edit != 0:  # 0: deletion
                hypothesis.append(word)
        if draw(3) == 0:
            hypothesis = list(reference)
        row = {"id": f"s{i}", "text": " ".join(reference), "kind": ["news", "chat", "read"][draw(3)],
               "human_score": 1 + draw(5)}
        samples.write(json.dumps(row) + "\n")
        answers.write(json.dumps({"id": f"s{i}", "prediction": " ".join(hypothesis)}) + "\n")
