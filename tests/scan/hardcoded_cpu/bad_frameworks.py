import os

import jax
import tensorflow as tf
from transformers import pipeline

os.environ["JAX_PLATFORMS"] = "cpu"  # expect: code.hardcoded_cpu
jax.config.update("jax_platform_name", "cpu")  # expect: code.hardcoded_cpu

with tf.device("/CPU:0"):  # expect: code.hardcoded_cpu
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")

classifier = pipeline("sentiment-analysis", device=-1)  # expect: code.hardcoded_cpu
