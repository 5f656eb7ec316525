# source: https://github.com/WildVision-AI/LMM-Engines/pull/3
# also: https://github.com/WildVision-AI/LMM-Engines/commit/91dff3309ba0f664235bea8d56a280283ce21571
# kind: inputs_not_moved
# bug: the Video-LLaVA adapter loaded its model with device_map="cuda" but passed the processor's output (token ids and pixel values built on the CPU) straight to generate(), which failed with "Expected all tensors to be on the same device ... index_select"; the fix moves every entry of the processor output to self.model.device.
# split: test8
import numpy as np
import torch
from transformers import VideoLlavaForConditionalGeneration, VideoLlavaProcessor


def sample_frames(decoded_frames, n=8):
    idx = np.linspace(0, len(decoded_frames) - 1, n).astype(int)
    return np.stack([decoded_frames[i] for i in idx])


class VideoChatAdapter:
    def load(self, checkpoint, load_kwargs=None):
        load_kwargs = dict(load_kwargs or {})
        load_kwargs.setdefault("torch_dtype", torch.float16)
        if not load_kwargs.get("device_map"):
            load_kwargs["device_map"] = "cuda"
        self.model = VideoLlavaForConditionalGeneration.from_pretrained(checkpoint, **load_kwargs)
        self.processor = VideoLlavaProcessor.from_pretrained(checkpoint)
        return self.model

    def answer(self, question, decoded_frames, **gen_kwargs):
        clip = sample_frames(decoded_frames)
        prompt = f"USER: <video>{question} ASSISTANT:"
        batch = self.processor(text=prompt, videos=clip, return_tensors="pt")
        out_ids = self.model.generate(**batch, **gen_kwargs)  # bug: inputs_not_moved
        prompt_len = batch["input_ids"].shape[1]
        return self.processor.batch_decode(out_ids[:, prompt_len:], skip_special_tokens=True)[0]


if __name__ == "__main__":
    adapter = VideoChatAdapter()
    adapter.load("some-org/video-llava-7b-hf")
    frames = [np.zeros((224, 224, 3), dtype=np.uint8) for _ in range(32)]
    print(adapter.answer("What happens in the video?", frames, max_new_tokens=32))
