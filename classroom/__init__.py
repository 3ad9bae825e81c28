"""The classroom: a JupyterHub for a workshop, nbgrader assignments from the labs, the instructor's view."""
