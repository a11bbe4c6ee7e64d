import { z } from 'zod';

/** PostgreSQL `integer` bounds: an input integer stored in such a column must fit (a bigger one was a 500). */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** An integer that fits a PostgreSQL `integer` column. */
export const int32 = () => z.number().int().min(INT32_MIN).max(INT32_MAX);
