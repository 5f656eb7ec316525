# source: https://github.com/QwenLM/Qwen2-Audio/pull/17
# also: https://github.com/QwenLM/Qwen2-Audio/commit/a12e4babd0f5a002be501fb8ee112c18c5eb0f1f
# kind: other
# bug: the GPU demo wrote inputs.input_ids = inputs.input_ids.to("cuda"), but the processor output is a dict-like BatchFeature, so the attribute write did not change the entry generate() reads and input_ids stayed on the CPU; the fix assigned inputs["input_ids"].
# split: dev2
import argparse

from transformers import AutoProcessor, Qwen2AudioForConditionalGeneration


def answer(model, processor, text, audios):
    inputs = processor(text=text, audios=audios, return_tensors="pt", padding=True)
    inputs.input_ids = inputs.input_ids.to("cuda")  # bug: other
    out = model.generate(**inputs, max_length=256)
    out = out[:, inputs["input_ids"].size(1):]
    return processor.batch_decode(out, skip_special_tokens=True)[0]


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="some/audio-chat")
    a = ap.parse_args()
    proc = AutoProcessor.from_pretrained(a.ckpt)
    model = Qwen2AudioForConditionalGeneration.from_pretrained(a.ckpt, device_map="cuda").eval()
    print(answer(model, proc, "<|audio_bos|><|AUDIO|><|audio_eos|>What is this?", []))
