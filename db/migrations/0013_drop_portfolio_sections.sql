-- Nothing ever read or wrote a portfolio section: a portfolio's order and grouping are its
-- media's own (portfolio_sort_order, portfolio_category).
DROP TABLE "portfolio_sections" CASCADE;
