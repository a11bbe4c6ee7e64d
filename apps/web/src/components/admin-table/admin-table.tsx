/**
 * AdminTable: the one list component of the admin area (MUI X DataGrid in server mode).
 *
 * Usage:
 *   const columns: GridColDef<Voucher>[] = [{ field: 'code', headerName: 'Code', flex: 1 }, ...];
 *   <AdminTable<Voucher>
 *     endpoint="/admin/vouchers"            // GET <endpoint>?page=&pageSize=&sort=&q=&<filters> -> {data, total}
 *     columns={columns}                      // `field` = the server's sort key; set `sortable: false` otherwise
 *     filters={{ status }}                   // extra query params (undefined/'' are left out); a change goes to page 1
 *     initialSort="-createdAt"               // optional, server syntax (`-` = descending)
 *     csvFilename="bons.csv"                 // shows "Exporter en CSV": downloads <endpoint>/export.csv, same filters
 *     toolbar={<Button>Nouveau</Button>}     // optional, right of the search box
 *     onRowClick={(row) => navigate(...)}    // optional
 *     syncUrl                                // optional: keeps page/pageSize/sort/q in the page's URL
 *     secondaryColumns={['ip']}              // optional: hidden at first below 1,600 px (row actions stay
 *   />                                        //   on screen); "Colonnes" lets staff choose, remembered
 * Refresh after a change: `queryClient.invalidateQueries({ queryKey: adminTableKey('/admin/vouchers') })`.
 * Rows need an `id` (or pass `getRowId`). The French texts come from `frFR` (@mui/x-data-grid/locales).
 */
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  GridPreferencePanelsValue,
  type GridRowIdGetter,
  type GridSortModel,
  type GridValidRowModel,
  useGridApiRef,
} from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { joinUrl } from '../../lib/api-client.ts';
import { useAuthStore } from '../../lib/auth-store.ts';
import { notifyError } from '../../lib/notify.ts';
import { getRuntimeConfig } from '../../lib/runtime-config.ts';
import { useColumnChoice } from './column-choice.ts';
import {
  type AdminFilters,
  gridRowCount,
  listSearchParams,
  sortModelOf,
  sortParamOf,
} from './list-params.ts';

export interface AdminTableProps<Row extends GridValidRowModel> {
  endpoint: string;
  columns: GridColDef<Row>[];
  filters?: AdminFilters;
  initialSort?: string;
  initialPageSize?: number;
  csvFilename?: string;
  searchPlaceholder?: string;
  /** Hide the search box (lists the server does not search). */
  hideSearch?: boolean;
  toolbar?: ReactNode;
  onRowClick?: (row: Row) => void;
  getRowId?: GridRowIdGetter<Row>;
  syncUrl?: boolean;
  /** Fixed height of the grid (it scrolls inside); default: grows with its rows. */
  height?: number;
  /** Accessible name of the grid. */
  label?: string;
  /** Fields hidden at first on screens narrower than 1,600 px; staff may show them ("Colonnes"). */
  secondaryColumns?: readonly string[];
  /** Fields also hidden at first on phones (under 600 px): the row's key figure and actions fit. */
  phoneHiddenColumns?: readonly string[];
  /**
   * What an empty list says and offers when no search or filter narrows it (e.g. "Aucune offre pour
   * le moment." and a "Créer une offre" button); a narrowed list says nothing matched.
   */
  empty?: { text: string; action?: ReactNode };
}

const PAGE_SIZES = [10, 25, 50, 100];

interface EmptyOverlayProps {
  text?: string;
  action?: ReactNode;
}

declare module '@mui/x-data-grid' {
  interface NoRowsOverlayPropsOverrides extends EmptyOverlayProps {}
  interface NoResultsOverlayPropsOverrides extends EmptyOverlayProps {}
}

/** An empty list says why and offers the next step, instead of "Pas de résultats". */
function EmptyOverlay({ text, action }: EmptyOverlayProps) {
  return (
    <Box
      data-testid="admin-table-empty"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1.5,
        height: '100%',
        p: 3,
        textAlign: 'center',
      }}
    >
      <Typography color="text.secondary">{text}</Typography>
      {action}
    </Box>
  );
}
const SEARCH_DEBOUNCE_MS = 300;

/** Query key prefix of every page of one endpoint (for invalidation after a change). */
export function adminTableKey(endpoint: string) {
  return ['admin-table', endpoint] as const;
}

/** Downloads `<endpoint>/export.csv` with the same filters, sending the Bearer token. */
async function downloadCsv(endpoint: string, params: URLSearchParams, filename: string): Promise<void> {
  const token = useAuthStore.getState().token;
  const query = params.toString();
  const url = joinUrl(getRuntimeConfig().apiBaseUrl, `${endpoint}/export.csv${query ? `?${query}` : ''}`);
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    notifyError("L'export CSV a échoué : serveur injoignable.");
    return;
  }
  if (!response.ok) {
    let message = "L'export CSV a échoué.";
    try {
      const body = (await response.json()) as { error?: string };
      if (body.error) message = body.error;
    } catch {
      // not JSON
    }
    notifyError(message);
    return;
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function AdminTable<Row extends GridValidRowModel>(props: AdminTableProps<Row>) {
  const apiRef = useGridApiRef();
  const [columnVisibility, chooseColumns] = useColumnChoice(
    props.endpoint,
    props.secondaryColumns,
    props.phoneHiddenColumns,
  );
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = (key: string) => (props.syncUrl ? (searchParams.get(key) ?? undefined) : undefined);
  const [pagination, setPagination] = useState<GridPaginationModel>(() => ({
    page: Math.max(0, Number(fromUrl('page') ?? 1) - 1) || 0,
    pageSize: Number(fromUrl('pageSize')) || props.initialPageSize || 25,
  }));
  const [sortModel, setSortModel] = useState<GridSortModel>(() =>
    sortModelOf(fromUrl('sort') ?? props.initialSort),
  );
  const [search, setSearch] = useState(() => fromUrl('q') ?? '');
  const q = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const sort = sortParamOf(sortModel);
  const filtersKey = JSON.stringify(props.filters ?? {});
  // Compared by value: a new object with the same filters must not refetch.
  const filters = useMemo(() => JSON.parse(filtersKey) as AdminFilters, [filtersKey]);

  // A new search or filter starts again from the first page (not the first render: a page from the
  // URL must survive a reload).
  const searchKey = `${q}\n${filtersKey}`;
  const previousSearchKey = useRef(searchKey);
  useEffect(() => {
    if (previousSearchKey.current === searchKey) return;
    previousSearchKey.current = searchKey;
    setPagination((current) => (current.page === 0 ? current : { ...current, page: 0 }));
  }, [searchKey]);

  const params = useMemo(
    () => listSearchParams({ page: pagination.page + 1, pageSize: pagination.pageSize, sort, q, filters }),
    [pagination.page, pagination.pageSize, sort, q, filters],
  );

  useEffect(() => {
    if (!props.syncUrl) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of ['page', 'pageSize', 'sort', 'q']) next.delete(key);
        if (pagination.page > 0) next.set('page', String(pagination.page + 1));
        if (pagination.pageSize !== (props.initialPageSize ?? 25))
          next.set('pageSize', String(pagination.pageSize));
        if (sort && sort !== props.initialSort) next.set('sort', sort);
        if (q.trim()) next.set('q', q.trim());
        return next;
      },
      { replace: true },
    );
  }, [props.syncUrl, pagination, sort, q, props.initialPageSize, props.initialSort, setSearchParams]);

  const query = useQuery({
    queryKey: [...adminTableKey(props.endpoint), params.toString()],
    queryFn: ({ signal }) =>
      api.get<{ data: Row[]; total: number; totalIsEstimate?: boolean }>(
        `${props.endpoint}?${params.toString()}`,
        {
          signal,
          fallback: 'Impossible de charger la liste.',
        },
      ),
    placeholderData: keepPreviousData,
  });

  const [isExporting, setExporting] = useState(false);
  const exportCsv = async () => {
    if (!props.csvFilename) return;
    setExporting(true);
    try {
      const exportParams = listSearchParams({ sort, q, filters });
      // Dates in the file follow the viewer's clock, like the table's.
      exportParams.set('tz', Intl.DateTimeFormat().resolvedOptions().timeZone);
      await downloadCsv(props.endpoint, exportParams, props.csvFilename);
    } finally {
      setExporting(false);
    }
  };

  const isNarrowed =
    Boolean(q) ||
    Object.values(props.filters ?? {}).some(
      (value) => value !== undefined && value !== '' && value !== 'all',
    );
  // Text only inside the grid (a button there breaks the grid's ARIA structure); an empty list with
  // a next step is shown in place of the grid.
  const emptyOverlay: EmptyOverlayProps = {
    text: isNarrowed
      ? 'Aucun résultat pour cette recherche ou ces filtres.'
      : (props.empty?.text ?? 'Rien pour le moment.'),
  };
  const showsEmptyState =
    props.empty?.action !== undefined && !isNarrowed && query.data?.total === 0 && !query.isFetching;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      {/* Button labels never wrap inside their button ("Nouvelle / offre"). */}
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1.5,
          alignItems: 'center',
          '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 },
        }}
      >
        {props.hideSearch ? null : (
          <TextField
            fullWidth={false}
            margin="none"
            size="small"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={props.searchPlaceholder ?? 'Rechercher…'}
            slotProps={{
              htmlInput: { 'aria-label': props.searchPlaceholder ?? 'Rechercher', name: 'q' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            // As wide as its placeholder says (it was cut off: "Nom, e-mail, Discord, H…").
            sx={{
              minWidth: 260,
              width: { sm: `calc(${(props.searchPlaceholder ?? 'Rechercher…').length}ch + 72px)` },
              maxWidth: '100%',
              flexGrow: { xs: 1, sm: 0 },
            }}
          />
        )}
        {props.toolbar}
        {/* The table's own buttons stay together, on the right (of the next row when the filters fill this one). */}
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'nowrap', ml: 'auto' }}>
          <Button
            variant="outlined"
            startIcon={<ViewColumnIcon />}
            onClick={() => apiRef.current?.showPreferences(GridPreferencePanelsValue.columns)}
          >
            Colonnes
          </Button>
          {props.csvFilename ? (
            <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv} loading={isExporting}>
              Exporter en CSV
            </Button>
          ) : null}
        </Box>
      </Box>
      {showsEmptyState ? (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <EmptyOverlay {...props.empty} />
        </Box>
      ) : (
        <Box sx={props.height ? { height: props.height } : undefined}>
          <DataGrid<Row>
            apiRef={apiRef}
            aria-label={props.label}
            columnVisibilityModel={columnVisibility}
            onColumnVisibilityModelChange={chooseColumns}
            rows={query.data?.data ?? []}
            {...gridRowCount(query.data, pagination.pageSize)}
            columns={props.columns}
            getRowId={props.getRowId}
            loading={query.isFetching}
            paginationMode="server"
            sortingMode="server"
            filterMode="server"
            disableColumnFilter
            disableRowSelectionOnClick
            sortingOrder={['asc', 'desc', null]}
            paginationModel={pagination}
            onPaginationModelChange={setPagination}
            pageSizeOptions={PAGE_SIZES}
            sortModel={sortModel}
            onSortModelChange={(model) => setSortModel(model.slice(0, 1))}
            onRowClick={props.onRowClick ? (params) => props.onRowClick?.(params.row) : undefined}
            localeText={frFR.components.MuiDataGrid.defaultProps.localeText}
            autoHeight={!props.height}
            slots={{ noRowsOverlay: EmptyOverlay, noResultsOverlay: EmptyOverlay }}
            slotProps={{ noRowsOverlay: emptyOverlay, noResultsOverlay: emptyOverlay }}
            // "0–0 sur 0" says nothing more than the empty list does.
            hideFooter={query.data?.total === 0 && pagination.page === 0}
            sx={props.onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : undefined}
          />
        </Box>
      )}
    </Box>
  );
}
