"""A stand-in for OpenAI's Realtime API (wss://HOST/v1/realtime?model=M), for UEA's GPT4oAudio class.

usage: realtime_standin.py FOLDER
Serves TLS on 127.0.0.1 with FOLDER/cert.pem and FOLDER/key.pem, prints its port on the first line of stdout,
and appends one JSON line per session to FOLDER/sessions.log: the path, the headers the API reads, the
session.update and response.create events as sent, and the audio appended (its bytes' sha256, length and the
number of input_audio_buffer.append events). Answers like the API: a text answer as response.text.delta events
then response.text.done; with "audio" among the modalities, audio deltas (24 kHz PCM16), the transcript's deltas
and response.audio.done. What it answers depends on the audio alone (its digest picks a word list), so two
clients sending the same audio get the same answer.
"""
import asyncio
import base64
import hashlib
import json
import os
import ssl
import sys

import websockets

WORDS = ["the cat sat on the mat", "a big dog ran home", "the cat ran on the mat", "one two three"]


async def session(websocket, path=None):
    folder = sys.argv[1]
    record = {"path": websocket.path, "authorization": websocket.request_headers.get("Authorization"),
              "openai_beta": websocket.request_headers.get("OpenAI-Beta"), "appends": 0}
    audio = bytearray()
    async for message in websocket:
        event = json.loads(message)
        if event["type"] == "session.update":
            record["session.update"] = event
        elif event["type"] == "input_audio_buffer.append":
            record["appends"] += 1
            audio.extend(base64.b64decode(event["audio"]))
        elif event["type"] == "input_audio_buffer.commit":
            await websocket.send(json.dumps({"type": "input_audio_buffer.committed"}))
        elif event["type"] == "response.create":
            record["response.create"] = event
            break
    digest = hashlib.sha256(audio).hexdigest()
    record.update(audio_sha256=digest, audio_bytes=len(audio))
    with open(os.path.join(folder, "sessions.log"), "a") as log:
        log.write(json.dumps(record, sort_keys=True) + "\n")
    answer = json.dumps({"content": WORDS[int(digest[:8], 16) % len(WORDS)]})
    modalities = record["response.create"]["response"]["modalities"]
    if "audio" in modalities:
        speech = bytes(len(answer) * 480)  # 10 ms of silence per character
        for start in range(0, len(speech), 4800):
            await websocket.send(json.dumps({"type": "response.audio.delta",
                                             "delta": base64.b64encode(speech[start:start + 4800]).decode()}))
        for word in answer.split(" "):
            await websocket.send(json.dumps({"type": "response.audio_transcript.delta", "delta": word + " "}))
        await websocket.send(json.dumps({"type": "response.audio.done"}))
    else:
        for word in answer.split(" "):
            await websocket.send(json.dumps({"type": "response.text.delta", "delta": word + " "}))
        await websocket.send(json.dumps({"type": "response.text.done", "text": answer}))
    await websocket.wait_closed()


async def main():
    folder = sys.argv[1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
    async with websockets.serve(session, "127.0.0.1", 0, ssl=context, max_size=None) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
