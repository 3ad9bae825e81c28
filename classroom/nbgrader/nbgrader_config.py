"""nbgrader for the course: copy classroom/nbgrader/ to the instructor's course folder (or run there).

The assignments in source/ are generated from solutions/ by classroom/make_nbgrader.py. On a hub,
point Exchange.root at a folder every learner's server shares (docs/jupyterhub.md).
"""

c = get_config()  # noqa: F821 (nbgrader's config loader provides it)
c.CourseDirectory.course_id = "tools-on-the-wire"
c.Exchange.root = "/srv/nbgrader/exchange"
c.ClearSolutions.code_stub = {"python": 'raise NotImplementedError("write this part (see the hint above)")'}
