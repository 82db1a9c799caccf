"""Write the recurring-job workload on the Philly trace (``instances/asrpt/philly_recurring.csv.gz``:
seed 0 on the paper's cluster) from the seeded model of ``optsched/asrpt/workload.py``
(tests/asrpt/test_workload.py keeps the file equal to it).

    python tools/philly_recurring.py | gzip -9 -n > instances/asrpt/philly_recurring.csv.gz
"""

import sys

from optsched.asrpt.workload import workload, write_csv
from optsched.placement.templates import PAPER_CLUSTER

if __name__ == "__main__":
    write_csv(workload(PAPER_CLUSTER, 0), sys.stdout)
