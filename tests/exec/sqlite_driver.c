/* sqlite_driver.c: SQLite doing real work: a schema with indexes and
 * foreign keys, a few thousand inserts in transactions (prepared statements
 * with bound parameters), joins, aggregates, window functions, recursive
 * CTEs, JSON, updates and deletes through triggers, VACUUM and
 * integrity_check, on a database file. Every result row is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

static int failures;

static int print_row(void *label, int n, char **values, char **names) {
    (void)names;
    printf("%s:", (const char *)label);
    for (int i = 0; i < n; i++) printf(" %s", values[i] ? values[i] : "NULL");
    printf("\n");
    return 0;
}

static void exec(sqlite3 *db, const char *label, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, print_row, (void *)label, &err) != SQLITE_OK) {
        printf("FAIL %s: %s\n", label, err);
        sqlite3_free(err);
        failures++;
    }
}

static unsigned long long state = 0x2545F4914F6CDD1DULL;
static unsigned next(unsigned bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % bound);
}

static void populate(sqlite3 *db) {
    static const char *cities[] = {"Oslo", "Lima", "Pune", "Kyiv", "Nuuk", "Apia", "Bern", "Doha"};
    static const char *words[] = {"red", "green", "blue", "amber", "violet", "teal"};
    exec(db, "schema",
         "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, joined INT);"
         "CREATE TABLE product(id INTEGER PRIMARY KEY, title TEXT UNIQUE, price REAL, tags TEXT);"
         "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT REFERENCES customer(id),"
         "  product INT REFERENCES product(id), qty INT, day INT);"
         "CREATE INDEX orders_by_customer ON orders(customer, day);"
         "CREATE INDEX product_by_price ON product(price DESC);"
         "CREATE TABLE audit(kind TEXT, n INT);"
         "CREATE TRIGGER order_gone AFTER DELETE ON orders BEGIN"
         "  INSERT INTO audit VALUES('delete', old.qty); END;");
    sqlite3_stmt *st;
    exec(db, "begin", "BEGIN");
    sqlite3_prepare_v2(db, "INSERT INTO customer(name, city, joined) VALUES(?1, ?2, ?3)", -1, &st, NULL);
    for (int i = 0; i < 500; i++) {
        char name[32];
        snprintf(name, sizeof name, "customer-%03d-%s", i, words[next(6)]);
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, cities[next(8)], -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, 2000 + (int)next(25));
        if (sqlite3_step(st) != SQLITE_DONE) failures++;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "INSERT INTO product(title, price, tags) VALUES(?, ?, json_array(?, ?))", -1, &st, NULL);
    for (int i = 0; i < 200; i++) {
        char title[32];
        snprintf(title, sizeof title, "product %d", i);
        sqlite3_bind_text(st, 1, title, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(st, 2, (double)(next(100000)) / 100.0);
        sqlite3_bind_text(st, 3, words[next(6)], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, words[next(6)], -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) failures++;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "INSERT INTO orders(customer, product, qty, day) VALUES(?, ?, ?, ?)", -1, &st, NULL);
    for (int i = 0; i < 6000; i++) {
        sqlite3_bind_int(st, 1, 1 + (int)next(500));
        sqlite3_bind_int(st, 2, 1 + (int)next(200));
        sqlite3_bind_int(st, 3, 1 + (int)next(9));
        sqlite3_bind_int(st, 4, (int)next(365));
        if (sqlite3_step(st) != SQLITE_DONE) failures++;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec(db, "commit", "COMMIT");
}

int main(void) {
    const char *path = "sqlite_driver.db";
    remove(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        printf("cannot open %s\n", path);
        return 1;
    }
    exec(db, "pragma", "PRAGMA foreign_keys=ON; PRAGMA journal_mode=DELETE");
    populate(db);
    exec(db, "counts", "SELECT (SELECT count(*) FROM customer), (SELECT count(*) FROM product),"
                       " (SELECT count(*) FROM orders)");
    exec(db, "join",
         "SELECT c.city, count(*), sum(o.qty), printf('%.2f', sum(o.qty * p.price))"
         " FROM orders o JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product"
         " GROUP BY c.city ORDER BY c.city");
    exec(db, "top",
         "SELECT c.name, sum(o.qty) AS q FROM customer c JOIN orders o ON o.customer = c.id"
         " GROUP BY c.id ORDER BY q DESC, c.id LIMIT 5");
    exec(db, "window",
         "SELECT day, qty, sum(qty) OVER (ORDER BY day, id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),"
         " rank() OVER (PARTITION BY customer ORDER BY qty DESC, id),"
         " lag(qty, 1, -1) OVER (ORDER BY id), ntile(4) OVER (ORDER BY id)"
         " FROM orders WHERE customer = 7 ORDER BY id");
    exec(db, "window-agg",
         "SELECT city, name, joined, dense_rank() OVER w, first_value(name) OVER w"
         " FROM customer WHERE joined > 2020 WINDOW w AS (PARTITION BY city ORDER BY joined, id)"
         " ORDER BY city, joined, id LIMIT 12");
    exec(db, "cte",
         "WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib"
         " WHERE n < 60) SELECT n, a FROM fib WHERE n % 10 = 0");
    exec(db, "cte-tree",
         "WITH RECURSIVE chain(id, depth) AS (SELECT 1, 0 UNION ALL SELECT id * 2 + depth % 2, depth + 1"
         " FROM chain WHERE id < 400) SELECT count(*), max(depth), sum(id) FROM chain");
    exec(db, "json",
         "SELECT json_extract(tags, '$[0]') AS t, count(*), printf('%.2f', avg(price))"
         " FROM product GROUP BY t ORDER BY t");
    exec(db, "json-build",
         "SELECT json_object('city', city, 'n', count(*), 'ids', json_group_array(id))"
         " FROM (SELECT * FROM customer WHERE id <= 30 ORDER BY id) GROUP BY city ORDER BY city");
    exec(db, "json-each",
         "SELECT key, value, type FROM json_each('{\"a\":[1,2,{\"b\":null}],\"c\":3.5,\"d\":\"x\"}')");
    exec(db, "update", "UPDATE product SET price = round(price * 1.1, 2) WHERE price < 100;"
                       " SELECT changes(), printf('%.2f', sum(price)) FROM product");
    exec(db, "delete", "DELETE FROM orders WHERE qty = 9 AND day > 300;"
                       " SELECT count(*), sum(n) FROM audit");
    exec(db, "strings",
         "SELECT upper(substr(name, 1, 12)), length(name), instr(name, '-'), replace(city, 'o', '0'),"
         " hex(city), like('%e%', name) FROM customer WHERE id IN (3, 33, 333) ORDER BY id");
    exec(db, "math", "SELECT 7 / 2, 7 % 3, -7 / 2, 1e308 * 10, abs(-5), typeof(1.0 * 3), 0x7fffffffffffffff + 0");
    exec(db, "vacuum", "VACUUM");
    exec(db, "integrity", "PRAGMA integrity_check");
    exec(db, "fk", "PRAGMA foreign_key_check");
    sqlite3_close(db);
    remove(path);
    printf("%s\n", failures ? "FAILED" : "all statements ok");
    return failures != 0;
}
