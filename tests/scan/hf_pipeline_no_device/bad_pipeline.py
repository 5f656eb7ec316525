from transformers import pipeline
import transformers

captioner = pipeline("image-to-text", model="Salesforce/blip-image-captioning-base")  # expect: code.hf_pipeline_no_device
generator = transformers.pipeline(  # expect: code.hf_pipeline_no_device
    "text-generation",
    model="gpt2",
)
print(captioner("cat.png"), generator("Hello"))
