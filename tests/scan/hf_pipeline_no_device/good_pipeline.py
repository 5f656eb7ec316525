from sklearn.pipeline import make_pipeline
from transformers import pipeline


def pipeline_config(**kwargs):
    return kwargs


asr = pipeline("automatic-speech-recognition", model="openai/whisper-small", device=0)
chat = pipeline("text-generation", model="meta-llama/Llama-3.2-1B", device_map="auto")
custom = pipeline("summarization", **pipeline_config(device=0))  # options we cannot see
clf = make_pipeline()
