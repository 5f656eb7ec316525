import tensorflow as tf

# A TensorFlow program that hides every GPU from itself.
tf.config.set_visible_devices([], "GPU")  # expect: code.hardcoded_cpu

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
