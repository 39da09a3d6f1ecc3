-- SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL, blob BLOB);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
INSERT INTO t SELECT x, printf('name-%d-%s', x, hex(randomblob(x % 40))), x * 0.5, randomblob(x % 300) FROM c;
CREATE INDEX t_name ON t(name);
SELECT count(*), sum(length(blob)) FROM t WHERE name LIKE 'name-1%';
DELETE FROM t WHERE id % 3 = 0;
SELECT name, count(*) FROM t GROUP BY substr(name, 1, 7) ORDER BY 2 DESC LIMIT 5;
