"""wirelab: the helper package of the course *Tools on the Wire*.

Every lesson imports what earlier lessons built from here, so a later notebook
runs even when the learner's own lab of an earlier lesson is unfinished.
Importing the package has no side effects: servers start only when asked.
"""

__version__ = "0.1.0"
