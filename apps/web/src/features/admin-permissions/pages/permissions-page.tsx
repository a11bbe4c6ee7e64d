import { type Permission, permissionLabel } from '@bot/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { permissionsQuery } from '../api/permissions.ts';
import { PermissionDialog } from '../components/permission-dialog.tsx';

/** /admin/permission: the 13 permissions, who holds them, and direct grants with end dates. */
export default function PermissionsPage() {
  const permissions = useQuery(permissionsQuery);
  const [open, setOpen] = useState<Permission | null>(null);
  return (
    <>
      <PageHeader
        title="Permissions"
        subtitle="Un changement s'applique dès la prochaine requête de l'utilisateur et à ses connexions en direct."
      />
      {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it too. */}
      <TableContainer
        component={Paper}
        variant="outlined"
        tabIndex={0}
        role="region"
        aria-label="Permissions"
      >
        <Table aria-label="Permissions">
          <TableHead>
            <TableRow>
              <TableCell>Permission</TableCell>
              <TableCell>Rôles</TableCell>
              <TableCell align="right">Détenteurs directs actifs</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(permissions.data ?? []).map((permission) => (
              <TableRow
                key={permission.name}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => setOpen(permission.name)}
              >
                <TableCell>
                  {permissionLabel(permission.name)}
                  {/* The name staff meet in the docs and the API, as a hint. */}
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    sx={{ display: 'block', fontFamily: 'monospace' }}
                  >
                    {permission.name}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {permission.roles.length === 0
                      ? '—'
                      : permission.roles.map((role) => <Chip key={role.id} size="small" label={role.name} />)}
                  </Box>
                </TableCell>
                <TableCell align="right">{permission.activeGrantCount}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <PermissionDialog name={open} onClose={() => setOpen(null)} />
    </>
  );
}
