"""The instructor batch grader: a folder of submissions in, a gradebook out.

grader/grade-submissions is the entry point; docs/instructors.md ("Grading a
class") and docs/design.md (section 7) describe what it does. Python 3 standard
library only; matplotlib, where installed, for the report pictures."""
