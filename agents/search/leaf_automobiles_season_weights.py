"""Fitted weights of the Racing Season leaf evaluation (two players): 300208 positions
of 3000 seasons, seed 0, every 4th decision; made by
``transit-gym season-leaf-fit --seasons 3000 --seed 0 --every 4``.

Row ``k``: races still to run (the current one included); columns:
``leaf_automobiles_season.FEATURES``.
"""

import numpy as np

# columns:
#   points race_points white light_gray dark_gray black wear cards
#   driver_1 driver_2 driver_3 driver_4 driver_5 driver_6 driver_7 driver_8
#   driver_9 driver_10 sponsor_A sponsor_B sponsor_C sponsor_D sponsor_E sponsor_F
WEIGHTS = np.array([
    [5, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0, 0, 0, 0],
    [-0.471568, 2.31591, -0.0446868, 0.0584386, 0.0937561, -0.0886916, -0.0609524, 0.157938,
     0.663532, -0.17462, -0.956183, -0.0261321, 0, 0.0775099, -0.377785, 0.531997,
     -0.205605, 0.467287, -0.0496668, 0.0712936, 0.252546, -0.179487, -0.172404, 0.0777177],
    [0.276488, -0.713158, -0.00408228, 0.0184631, 0.0169897, -0.0273103, -0.0344672, 0.109305,
     0.190126, -0.142414, -0.556635, -0.0492392, 0, -0.0470666, -0.0663396, 0.669054,
     0.0442819, -0.0417668, -0.261949, -0.102216, -0.0263452, -0.0960885, -0.240259, -0.162973],
    [0, 0.205404, -0.0259773, -0.00145835, -0.0539549, -0.0388949, 0.00716892, 0.0752702,
     0.146775, -0.167826, -0.519957, -0.00507321, 0, -0.101843, -0.0645013, 0.884701,
     0.0494186, -0.221694, 0, 0, 0, 0, 0, 0],
])
