import tensorflow as tf
from transformers import pipeline

with tf.device("/GPU:0"):
    x = tf.random.normal((8, 8))
tf.config.set_visible_devices(tf.config.list_physical_devices("GPU")[:1], "GPU")
pipe = pipeline("sentiment-analysis", device=0)
