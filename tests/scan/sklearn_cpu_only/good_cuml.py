import numpy as np
from cuml.ensemble import RandomForestClassifier
from sklearn.preprocessing import StandardScaler

X = np.random.rand(1000, 8).astype(np.float32)
y = (X[:, 0] > 0.5).astype(np.int32)
scaler = StandardScaler().fit(X)  # preprocessing, not a model cuML would speed up
clf = RandomForestClassifier(n_estimators=100)
clf.fit(scaler.transform(X), y)
