# multiprocessing.Pool as scripts use it for parallel work: map, starmap, apply_async, imap, context managers.
import multiprocessing as mp
def square(x):
    return x * x
def add(a, b):
    return a + b
if __name__ == "__main__":
    print(mp.cpu_count() >= 1)
    with mp.Pool(4) as pool:
        print(pool.map(square, range(8)))
        print(pool.starmap(add, [(1, 2), (3, 4)]))
        r = pool.apply_async(square, (12,))
        print(r.get(timeout=5), r.ready(), r.successful())
        print(sorted(pool.imap_unordered(square, [3, 1, 2])), list(pool.imap(square, [4, 5])))
        print(pool.apply(add, (5, 6)))
        bad = pool.apply_async(int, ("x",))
        try:
            bad.get()
        except ValueError as e:
            print("ValueError", e)
    pool = mp.Pool(processes=2)
    print(pool.map(abs, [-1, -2]))
    pool.close()
    pool.join()
    with mp.get_context("spawn").Pool(2) as p:
        print(p.map(square, [7]))
