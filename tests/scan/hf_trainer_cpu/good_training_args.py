from transformers import Seq2SeqTrainingArguments, TrainingArguments

args = TrainingArguments(output_dir="out", bf16=True, use_cpu=False)
s2s = Seq2SeqTrainingArguments(output_dir="s2s", fp16=True, dataloader_num_workers=4)
